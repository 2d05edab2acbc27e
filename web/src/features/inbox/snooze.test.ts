import { snoozeEnd, toLocalInput } from './snooze';

describe('snooze choices', () => {
  // Wednesday 2026-03-04 15:20 local time.
  const now = new Date(2026, 2, 4, 15, 20);

  it('ends an hour from now', () => {
    expect(snoozeEnd('hour', now).getTime() - now.getTime()).toBe(3_600_000);
  });

  it('ends tomorrow at nine', () => {
    expect(toLocalInput(snoozeEnd('tomorrow', now))).toBe('2026-03-05T09:00');
  });

  it('ends next Monday at nine, a full week on when today is Monday', () => {
    expect(toLocalInput(snoozeEnd('nextWeek', now))).toBe('2026-03-09T09:00');
    expect(toLocalInput(snoozeEnd('nextWeek', new Date(2026, 2, 9, 8, 0)))).toBe('2026-03-16T09:00');
    expect(toLocalInput(snoozeEnd('nextWeek', new Date(2026, 2, 8, 22, 0)))).toBe('2026-03-09T09:00');
  });
});
