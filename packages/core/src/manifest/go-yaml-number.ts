import type { ScalarTag } from 'yaml';

/**
 * The plain scalars go-yaml v2 (kubectl's reader, through sigs.k8s.io/yaml) resolves to a
 * number, as its `resolve` does:
 *
 * - a scalar starting with `.` is a number when Go's `ParseFloat` takes it as written
 *   (`_` only between digits);
 * - one starting with a digit or a sign loses every `_` first, then is a number when Go's
 *   `ParseInt(s, 0, 64)` takes it (a sign, then `0x`/`0X`, `0o`/`0O`, `0b`/`0B`, a leading-0
 *   octal, or decimal digits) or it matches go-yaml's float pattern
 *   `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`.
 *
 * The `yaml` package's YAML 1.1 schema knows only the lower-case, unsigned prefixes and no
 * `_` in exponents, so `0X1F`, `-0o17` or `1_0e1_0` were strings here and numbers to kubectl.
 * Written with `_` between any two characters after the first, as go-yaml ignores them.
 */
// Each run of digits is `_*`, one digit, then digits and `_`: one way to match any text, so
// a near-miss fails in linear time (`[0-9_]*[0-9][0-9_]*` tried every split: 9 s for
// `1e` and 4,000 underscores).
const BODY = [
  '0_*[xX]_*[0-9a-fA-F][0-9a-fA-F_]*',
  '0_*[oO]_*[0-7][0-7_]*',
  '0_*[bB]_*[01][01_]*',
  '(?:\\._*[0-9][0-9_]*|[0-9][0-9_]*(?:\\.[0-9_]*)?)(?:[eE](?:_*[-+])?_*[0-9][0-9_]*)?',
].join('|');
// Go's float literal syntax, where `_` may stand only between two digits: a run of digits
// and `_` that starts with a digit, holds no `__` and does not end in `_`. Said with
// lookarounds over one character class, not as the group `[0-9](?:_?[0-9])*`: V8 keeps a
// backtracking entry per pass through a group and threw RangeError on `.` and some 9 M
// digits, which the reader then reported as a document nested too deeply. A loop over one
// class it runs without them, so this takes any length in linear time.
const DIGIT_RUN = '[0-9](?![0-9_]*__)[0-9_]*(?<!_)';
const DOT_FIRST = `\\.${DIGIT_RUN}(?:[eE][-+]?${DIGIT_RUN})?`;
export const GO_YAML_NUMBER = new RegExp(`^(?:${DOT_FIRST}|[-+]_*(?:${BODY})|(?=[0-9])(?:${BODY}))$`);

const INT64_MIN_MAGNITUDE = 2n ** 63n;
const UINT64_MAX = 2n ** 64n - 1n;

/**
 * What go-yaml makes of a scalar `GO_YAML_NUMBER` matches: a number, or the scalar itself
 * where Go's integer parsers give up (beyond 64 bits). Two differences are refusals, made
 * by read.ts: integers beyond 2^53 come back rounded, and a float beyond the double range
 * (`1e400`, a string to go-yaml, an error to kubectl's JSON decoder) is infinite.
 */
export function goYamlNumber(source: string): number | string {
  const plain = source.replaceAll('_', '');
  const prefixed = /^([-+]?)0([xXoObB])(.+)$/.exec(plain) ?? /^([-+]?)0()([0-7]+)$/.exec(plain);
  if (prefixed === null) {
    const value = Number(plain);
    // (Go's ParseInt reads `-0` as 0; only a float keeps the sign of zero)
    return value === 0 && /^[-+]?[0-9]+$/.test(plain) ? 0 : value;
  }
  const [, sign, base, digits] = prefixed as unknown as [string, string, string, string];
  const magnitude = BigInt(`0${base === '' ? 'o' : base.toLowerCase()}${digits}`);
  if (sign === '-' ? magnitude > INT64_MIN_MAGNITUDE : magnitude > UINT64_MAX) return source;
  return Number(sign === '-' ? -magnitude : magnitude);
}

/** Tried before the YAML 1.1 schema's own number tags, so every go-yaml number reads as one. */
export const goYamlNumberTag: ScalarTag = {
  default: true,
  tag: 'tag:yaml.org,2002:int',
  test: GO_YAML_NUMBER,
  resolve: goYamlNumber,
};

/**
 * The name kubectl gives a map key that go-yaml read as a float: sigs.k8s.io/yaml writes it
 * with Go's `strconv.FormatFloat(key, 'g', -1, 32)`, the shortest digits of the key as a
 * float32. So `1e-7:` is the key "1e-07", `1e7:` "1e+07", `3.14159265358979:` "3.1415927"
 * and `-0.0:` "-0", where JavaScript's `String` says 1e-7, 10000000, 3.14159265358979, 0.
 */
export function goYamlFloatKey(value: number): string {
  const single = Math.fround(value);
  if (!Number.isFinite(single)) return single > 0 ? '.inf' : '-.inf';
  if (single === 0) return Object.is(single, -0) ? '-0' : '0';
  // The fewest digits that read back as the same float32 (toExponential rounds to nearest).
  let text = single.toExponential(8);
  for (let digits = 1; digits < 9; digits++) {
    const shorter = single.toExponential(digits - 1);
    if (Math.fround(Number(shorter)) === single) {
      text = shorter;
      break;
    }
  }
  const [mantissa, exponentText] = text.split('e') as [string, string];
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace(/^-/, '').replace('.', '');
  const exponent = Number(exponentText);
  const sign = negative ? '-' : '';
  // 'g' with the shortest digits writes an exponent below 1e-4 and from 1e6 up (at least two digits)
  if (exponent < -4 || exponent >= 6) {
    const fraction = digits.length > 1 ? `.${digits.slice(1)}` : '';
    const magnitude = String(Math.abs(exponent)).padStart(2, '0');
    return `${sign}${digits[0]}${fraction}e${exponent < 0 ? '-' : '+'}${magnitude}`;
  }
  const point = exponent + 1; // digits before the decimal point
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}
