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

/** Nanoseconds of a Go duration string, or undefined when it is not one. Linear in the text. */
export function parseGoDuration(text: string): number | undefined {
  let rest = text;
  let sign = 1;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    sign = rest.startsWith('-') ? -1 : 1;
    rest = rest.slice(1);
  }
  if (rest === '0') return 0;
  if (rest === '' || rest.length > 64) return undefined;
  let total = 0;
  while (rest !== '') {
    const m = PART.exec(rest);
    if (m === null) return undefined;
    total += Number(m[1]) * UNIT_NANOS[m[2]!]!;
    rest = rest.slice(m[0].length);
  }
  return sign * total;
}

/** Whole seconds (truncated toward zero, capped at MaxInt32) of a Go duration string. */
export function durationToSeconds(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const nanos = parseGoDuration(value);
  if (nanos === undefined || !Number.isFinite(nanos)) return undefined;
  const seconds = Math.trunc(nanos / 1e9);
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
