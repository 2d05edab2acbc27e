// When the snooze choices end, in the user's own time zone.

const HOUR_MS = 60 * 60 * 1000;
/** Snoozes that name a day end at the start of the working day. */
const MORNING_HOUR = 9;

export type SnoozeChoice = 'hour' | 'tomorrow' | 'nextWeek';

function morningIn(days: number, now: Date): Date {
  const date = new Date(now);
  date.setDate(date.getDate() + days);
  date.setHours(MORNING_HOUR, 0, 0, 0);
  return date;
}

/** One hour from now, tomorrow at 09:00, or next Monday at 09:00. */
export function snoozeEnd(choice: SnoozeChoice, now: Date = new Date()): Date {
  switch (choice) {
    case 'hour':
      return new Date(now.getTime() + HOUR_MS);
    case 'tomorrow':
      return morningIn(1, now);
    case 'nextWeek':
      // Sunday is 0: a Monday is 7 days away from a Monday, 1 from a Sunday.
      return morningIn(((8 - now.getDay()) % 7) || 7, now);
  }
}

/** The value a datetime-local input shows for a date (local time, minutes). */
export function toLocalInput(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
