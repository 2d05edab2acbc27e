// Dates are shown as dd/mm/yyyy and times on the 24-hour clock, in the user's time zone.

const pad = (n: number) => String(n).padStart(2, '0');

export function formatDate(value: string | Date): string {
  const date = new Date(value);
  return `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${date.getFullYear()}`;
}

export function formatTime(value: string | Date): string {
  const date = new Date(value);
  return `${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

export function formatDateTime(value: string | Date): string {
  return `${formatDate(value)} ${formatTime(value)}`;
}

export function isSameDay(a: string | Date, b: string | Date): boolean {
  return formatDate(a) === formatDate(b);
}

/** The chat list shows the time for today's messages and the date for older ones. */
export function formatListTime(value: string, now: Date = new Date()): string {
  return isSameDay(value, now) ? formatTime(value) : formatDate(value);
}
