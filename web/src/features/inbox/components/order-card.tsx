import { useTranslation } from 'react-i18next';
import type { OrderItem } from '../../../lib/api/types';

export function OrderCard({ items, text }: { items: OrderItem[]; text?: string }) {
  const { t } = useTranslation();
  const currency = items[0]?.currency ?? '';
  const total = items.reduce((sum, item) => sum + item.quantity * item.item_price, 0);
  return (
    <div className="order-card">
      <strong>{t('message.order', { count: items.length })}</strong>
      <ul>
        {items.map((item) => (
          <li key={item.product_retailer_id}>
            <span>{item.product_retailer_id}</span>
            <span>
              {item.quantity} × {item.item_price} {item.currency}
            </span>
          </li>
        ))}
      </ul>
      <p className="order-total">
        {t('message.total')}: {total} {currency}
      </p>
      {text && <p>{text}</p>}
    </div>
  );
}
