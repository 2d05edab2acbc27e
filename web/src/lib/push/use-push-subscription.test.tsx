import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderWithApp } from '../../testing/render';
import { CHAT_TOAST_MS, type ShowToast } from '../toast/toast-context';
import { PushPermissionBlocked } from './push';
import { useEnableNotifications } from './use-push-subscription';

const enableNotifications = vi.fn<() => Promise<boolean>>();
vi.mock('./notifications', () => ({ enableNotifications: () => enableNotifications(), refreshNotifications: async () => undefined }));

function Bell() {
  return <button onClick={useEnableNotifications()}>bell</button>;
}

describe("the bell's toasts", () => {
  it('last as long as the chat page’s (spec: 5 s there), whether notifications came on or were blocked', async () => {
    const showToast = vi.fn<ShowToast>();
    renderWithApp(<Bell />, showToast);

    enableNotifications.mockResolvedValueOnce(true);
    fireEvent.click(screen.getByRole('button', { name: 'bell' }));
    await waitFor(() => expect(showToast).toHaveBeenCalledTimes(1));
    expect(showToast).toHaveBeenLastCalledWith(expect.any(String), 'success', CHAT_TOAST_MS);

    enableNotifications.mockRejectedValueOnce(new PushPermissionBlocked(true));
    fireEvent.click(screen.getByRole('button', { name: 'bell' }));
    await waitFor(() => expect(showToast).toHaveBeenCalledTimes(2));
    expect(showToast).toHaveBeenLastCalledWith(expect.stringContaining('Notifications are blocked'), 'info', CHAT_TOAST_MS);
  });
});
