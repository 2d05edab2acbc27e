import { fakeServer, json } from '../../testing/fake-server';
import { deleteContactHere, deletedHere } from './deleted-here';

describe('contacts this tab deleted', () => {
  it('are this tab’s own from the request on, and no longer once the time is up', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      let duringRequest = false;
      fakeServer({
        'DELETE /api/contacts/delete/15550001111': () => {
          duringRequest = deletedHere('15550001111');
          return json({ status: 'success' });
        },
      });
      await deleteContactHere('15550001111');
      expect(duringRequest).toBe(true);
      expect(deletedHere('15550001111')).toBe(true);
      expect(deletedHere('15550002222')).toBe(false);
      vi.advanceTimersByTime(60_000);
      expect(deletedHere('15550001111')).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it('are not when the server refused the deletion', async () => {
    fakeServer({ 'DELETE /api/contacts/delete/15550003333': () => json({ detail: 'no', message: 'no', code: 'not_found' }, 404) });
    await expect(deleteContactHere('15550003333')).rejects.toThrow('no');
    expect(deletedHere('15550003333')).toBe(false);
  });
});
