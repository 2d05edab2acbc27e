import { replyWindow } from './reply-window';

const at = (iso: string) => new Date(iso).getTime();

describe('reply window', () => {
  it('counts down hh:mm:ss from 24 h after the last incoming message', () => {
    expect(replyWindow('2026-01-01T10:00:00Z', at('2026-01-01T10:00:01Z'))).toEqual({
      expired: false,
      nearExpiry: false,
      remaining: '23:59:59',
    });
  });

  it('is near expiry in its last hour', () => {
    expect(replyWindow('2026-01-01T10:00:00Z', at('2026-01-02T09:15:00Z'))).toEqual({
      expired: false,
      nearExpiry: true,
      remaining: '00:45:00',
    });
  });

  it('is expired at zero and without any incoming message', () => {
    expect(replyWindow('2026-01-01T10:00:00Z', at('2026-01-02T10:00:00Z')).expired).toBe(true);
    expect(replyWindow(null, at('2026-01-02T10:00:00Z')).expired).toBe(true);
  });
});
