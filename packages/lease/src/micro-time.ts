import { V1MicroTime } from '@kubernetes/client-node';

/**
 * The API server parses Lease times with Go's layout `2006-01-02T15:04:05.000000Z07:00`:
 * exactly six fractional digits. A JavaScript Date serialises with three and is rejected
 * (400), so every time this package writes goes through here. client-node's V1MicroTime
 * pads the milliseconds with `000` when it is turned into JSON.
 */
export function toMicroTime(date: Date): V1MicroTime {
  return new V1MicroTime(date.getTime());
}

/** `date` in the exact text form the server stores (`2026-01-02T03:04:05.678000Z`). */
export function formatMicroTime(date: Date): string {
  return toMicroTime(date).toISOString();
}

const rfc3339 = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;

/**
 * Reads a Lease time. client-node hands MicroTime fields back as strings (it has no
 * deserialiser for them), but a caller may also pass a Date. Anything else, or a string
 * that is not RFC 3339, gives undefined: a malformed time written by another tool must not
 * crash an observer. Precision beyond milliseconds is dropped by Date.
 */
export function parseMicroTime(value: unknown): Date | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : new Date(value.getTime());
  if (typeof value !== 'string') return undefined;
  const match = rfc3339.exec(value.trim());
  if (match === null) return undefined;
  const fraction = (match[2] ?? '').padEnd(3, '0').slice(0, 3);
  const date = new Date(`${match[1]}.${fraction}${match[3]}`);
  if (Number.isNaN(date.getTime()) || !inRange(match[1]!)) return undefined;
  return date;
}

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Whether the date and clock fields name a real time, as Go's `time.Parse` checks them:
 * `Date` rolls February 31st over into March and 24:00 into the next day, a time the
 * writer never meant.
 */
function inRange(text: string): boolean {
  const [year, month, day, hour, minute, second] = text.split(/[-T:]/).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 && !leap ? 28 : DAYS_IN_MONTH[month - 1];
  return days !== undefined && day >= 1 && day <= days && hour <= 23 && minute <= 59 && second <= 59;
}
