import { fireEvent, screen, waitFor } from '@testing-library/react';
import { saveSession } from '../../../lib/api/session-store';
import type { ShowToast } from '../../../lib/toast/toast-context';
import { renderWithApp } from '../../../testing/render';
import { enableNotifications } from '../../../lib/push/notifications';
import { WEB_PUSH_TOKEN, webPushBrowser, webPushServer } from '../../../testing/web-push';
import { NotificationsSection } from './notifications-section';

vi.mock('@capacitor/core', () => ({ Capacitor: { isNativePlatform: () => false, getPlatform: () => 'web' } }));

beforeEach(() => saveSession({ accessToken: 'access', refreshToken: 'refresh' }));

describe('Notifications on this device', () => {
  it('turns on, then off, then on again, telling the server each time', async () => {
    const { notification } = webPushBrowser('default', 'granted');
    const { requests } = webPushServer();
    const showToast = vi.fn<ShowToast>();
    renderWithApp(<NotificationsSection />, showToast);

    expect(await screen.findByText('Off')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(await screen.findByText('On')).toBeInTheDocument();
    expect(notification.requestPermission).toHaveBeenCalledTimes(1);
    expect(requests.at(-1)).toMatchObject({ path: '/api/subscribe-to-notifications', body: { token: WEB_PUSH_TOKEN, platform: 'web' } });
    expect(showToast).toHaveBeenLastCalledWith('Notifications are on.', 'success', expect.any(Number));

    fireEvent.click(screen.getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByText('Off')).toBeInTheDocument();
    expect(requests.at(-1)).toMatchObject({ path: '/api/unsubscribe-from-notifications', body: { token: WEB_PUSH_TOKEN } });
    expect(showToast).toHaveBeenLastCalledWith('Notifications are off on this device.', 'success');

    fireEvent.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(await screen.findByText('On')).toBeInTheDocument();
    expect(requests.at(-1)?.path).toBe('/api/subscribe-to-notifications');
  });

  it('is off on this device even when the server cannot be told, and says so', async () => {
    const { subscription } = webPushBrowser('granted');
    webPushServer();
    await enableNotifications();
    const showToast = vi.fn<ShowToast>();
    renderWithApp(<NotificationsSection />, showToast);
    await screen.findByText('On');
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const unreachable = vi.fn<typeof fetch>(async () => Promise.reject(new TypeError('offline')));
    vi.stubGlobal('fetch', unreachable);

    fireEvent.click(screen.getByRole('button', { name: 'Turn off' }));

    expect(await screen.findByText('Off')).toBeInTheDocument();
    expect(subscription.unsubscribe).toHaveBeenCalledTimes(1);
    expect(showToast).toHaveBeenLastCalledWith(expect.stringContaining('could not be reached'), 'info');
    expect(String(unreachable.mock.calls[0]?.[0])).toContain('/api/unsubscribe-from-notifications');
  });

  it('says when the browser blocks notifications, with no button that cannot work', async () => {
    webPushBrowser('denied');
    renderWithApp(<NotificationsSection />);

    expect(await screen.findByText('Blocked by the browser')).toBeInTheDocument();
    expect(screen.getByText(/Allow notifications for this site/)).toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });

  it('says when this browser has no notifications at all', async () => {
    renderWithApp(<NotificationsSection />);

    expect(await screen.findByText('Not supported on this browser')).toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });
});

describe('the button while it works', () => {
  it('cannot be pressed twice', async () => {
    webPushBrowser('default', 'granted');
    webPushServer();
    renderWithApp(<NotificationsSection />);
    const button = await screen.findByRole('button', { name: 'Turn on' });

    fireEvent.click(button);

    expect(button).toBeDisabled();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Turn off' })).toBeEnabled());
  });
});
