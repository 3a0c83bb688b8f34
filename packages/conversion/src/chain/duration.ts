/**
 * Go `time.Duration` text (metav1.Duration: "90s", "1m30s", "1.5h", "500ms") ⇄ whole seconds,
 * as v1beta2's `…Seconds` fields hold it. Upstream truncates to whole seconds and caps at
 * MaxInt32; the sub-second rest (and the original spelling) is what the stash keeps.
 */
const UNIT_NANOS: Readonly<Record<string, number>> = {
  ns: 1,
  us: 1e3,
  µs: 1e3,
  μs: 1e3,
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
};

const MAX_INT32 = 2 ** 31 - 1;
const PART = /^(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/;

/**
 * Nanoseconds of a Go duration string, exact, or undefined when it is not one. Linear in the
 * text. Each part is computed as Go's time.ParseDuration does: the whole number times the
 * unit in integers, plus the fraction as float64(f) * (unit / scale), truncated. Multiplying
 * the decimal by the unit in floating point instead made "4.1m" 245.99999999999997 s, so
 * v1beta2 got 245 where upstream (and the exact value) is 246.
 */
function goDurationNanos(text: string): bigint | undefined {
  let rest = text;
  let negative = false;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    negative = rest.startsWith('-');
    rest = rest.slice(1);
  }
  if (rest === '0') return 0n;
  if (rest === '' || rest.length > 64) return undefined;
  let total = 0n;
  while (rest !== '') {
    const m = PART.exec(rest);
    if (m === null) return undefined;
    const unit = UNIT_NANOS[m[2]!]!;
    const number = m[1]!;
    const dot = number.indexOf('.');
    const whole = dot < 0 ? number : number.slice(0, dot);
    const fraction = dot < 0 ? '' : number.slice(dot + 1);
    total += BigInt(whole === '' ? '0' : whole) * BigInt(unit);
    if (fraction !== '') total += BigInt(Math.trunc(Number(fraction) * (unit / 10 ** fraction.length)));
    rest = rest.slice(m[0].length);
  }
  return negative ? -total : total;
}

/** Nanoseconds of a Go duration string, or undefined when it is not one. Linear in the text. */
export function parseGoDuration(text: string): number | undefined {
  const nanos = goDurationNanos(text);
  return nanos === undefined ? undefined : Number(nanos);
}

/** Whole seconds (truncated toward zero, capped at MaxInt32) of a Go duration string. */
export function durationToSeconds(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const nanos = goDurationNanos(value);
  if (nanos === undefined) return undefined;
  const seconds = Number(nanos / 1_000_000_000n); // (BigInt division truncates toward zero)
  return Math.max(-MAX_INT32 - 1, Math.min(MAX_INT32, seconds)) + 0;
}

/** Go's `time.Duration.String()` for whole seconds: 0s, 45s, 1m30s, 2h0m0s. */
export function secondsToDuration(value: unknown): string | undefined {
  if (typeof value !== 'number' || !Number.isInteger(value)) return undefined;
  if (value === 0) return '0s';
  const sign = value < 0 ? '-' : '';
  let s = Math.abs(value);
  const h = Math.floor(s / 3600);
  s -= h * 3600;
  const m = Math.floor(s / 60);
  s -= m * 60;
  if (h > 0) return `${sign}${h}h${m}m${s}s`;
  if (m > 0) return `${sign}${m}m${s}s`;
  return `${sign}${s}s`;
}
