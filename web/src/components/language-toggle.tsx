import { useLanguageToggle } from './use-language-toggle';

export function LanguageToggle() {
  const { label, toggle } = useLanguageToggle();
  return (
    <button type="button" className="text-button" onClick={() => void toggle()}>
      {label}
    </button>
  );
}
