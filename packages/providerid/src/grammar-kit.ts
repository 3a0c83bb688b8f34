/**
 * Building blocks for cloud grammars. Provider packages describe their clouds with these
 * instead of re-implementing scheme checks, field reads and integer rules each time.
 */
import { type Either, left, right } from 'fp-ts/lib/Either.js';
import {
  type CharKind,
  CONTROL,
  charFaultDetail,
  charKind,
  codePointName,
  kindName,
  quoteInput,
  SPACE,
  tokenCharFaultAt,
  WIDE_SPACE,
} from './characters.js';
import {
  type CloudProviderIDGrammar,
  type InstanceIdentity,
  type ProviderIDError,
  type ProviderIDFields,
  providerIDError,
  type SplitProviderID,
} from './types.js';

export type FieldsResult = Either<ProviderIDError, ProviderIDFields>;

/**
 * Checks that `id` uses one of `schemes` with the "://" separator. Returns the error to
 * report, or undefined when the scheme fits.
 */
export function checkScheme(
  cloud: string,
  id: SplitProviderID,
  schemes: readonly string[],
): ProviderIDError | undefined {
  if (id.scheme === '') {
    return providerIDError('no-scheme', `expected ${schemes.map((s) => `${s}://`).join(' or ')}`, { cloud });
  }
  if (!schemes.includes(id.scheme)) {
    return providerIDError(
      'wrong-scheme',
      `scheme ${quoteInput(id.scheme)} is not ${cloud}'s (expected ${schemes.join(' or ')})`,
      { cloud },
    );
  }
  if (id.separator !== '://') {
    return providerIDError('malformed', `expected ${quoteInput(`${id.scheme}://`)} after the scheme`, {
      cloud,
    });
  }
  return undefined;
}

/**
 * Every grammar's first step: `read` gets the text after "://" once `id`'s scheme is one of
 * `schemes` (the scheme's error otherwise). With `bare`, an ID without a scheme is read as
 * it stands, scheme '': for clouds whose own parser accepts the bare form, when the caller
 * has decided it may (the cloud is named, or the string has the cloud's bare shape).
 */
export function readAfterScheme(
  cloud: string,
  id: SplitProviderID,
  schemes: readonly string[],
  read: (rest: string, scheme: string) => FieldsResult,
  bare = false,
): FieldsResult {
  if (bare && id.scheme === '') return read(id.rest, '');
  const bad = checkScheme(cloud, id, schemes);
  return bad ? left(bad) : read(id.rest, id.scheme);
}

export const malformed = (cloud: string, message: string): FieldsResult =>
  left(providerIDError('malformed', message, { cloud }));

export const invalidField = (cloud: string, field: string, message: string): FieldsResult =>
  left(providerIDError('invalid-field', message, { cloud, field }));

// Linear-time shapes (single character classes, fixed repetition).
const DIGITS = /^[0-9]+$/;
const UUID = /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/;
const INT64_MAX = 9223372036854775807n;

/** A decimal int64 as Go's strconv.ParseInt(s, 10, 64) accepts it, without the sign. */
export function isInt64Text(s: string): boolean {
  // Up to 18 digits always fit in an int64: only 19-digit text needs the BigInt comparison.
  return s.length > 0 && s.length <= 19 && DIGITS.test(s) && (s.length < 19 || BigInt(s) <= INT64_MAX);
}

/**
 * The canonical spelling of a decimal integer's digits (no leading zeros), so 007 and 7
 * share a key. Only a leading zero makes digits non-canonical, so only then is a BigInt
 * built (identity runs on every parse of a numeric cloud's ID).
 */
export function canonicalInteger(s: string): string {
  return s.length > 1 && s.charCodeAt(0) === 0x30 ? BigInt(s).toString() : s;
}

export function isUUID(s: string): boolean {
  return UUID.test(s);
}

/** UUIDs compare case-insensitively; other opaque IDs compare exactly. */
export function foldUUID(s: string): string {
  return isUUID(s) ? s.toLowerCase() : s;
}

// Controls and every kind of white space keep tokenFault's one phrase from before
// characters.ts told them apart; the other kinds are named as characters.ts names them.
const WHITE_SPACE_OR_CONTROL: ReadonlySet<CharKind> = new Set([CONTROL, SPACE, WIDE_SPACE]);
const tokenCharFault = (kind: CharKind) =>
  WHITE_SPACE_OR_CONTROL.has(kind)
    ? 'contains white space or a control character'
    : `contains ${kindName(kind)}`;

/**
 * Why `s` cannot be a field read from one segment of an ID, or undefined when it can: a
 * field is non-empty, free of '/', white space (ASCII or not: U+00A0, U+2028, ...), C0
 * controls, DEL, C1 controls (U+0080–U+009F; U+009B is CSI, a terminal escape), format
 * and other invisible characters (the bidi controls such as U+202E, zero-width space and
 * joiners, U+FEFF, ...; see characters.ts) and unpaired surrogates, and not "." or ".."
 * (a tool that builds an API URL from the fields would step out of its path). One scan of
 * the characters, allocating nothing; the answer is a fixed phrase for "<the field> …"
 * messages (`tokenFaultMessage` adds where and what).
 */
export function tokenFault(s: string): string | undefined {
  const n = s.length;
  if (n === 0) return 'is empty';
  const at = tokenCharFaultAt(s);
  if (at >= 0) return tokenCharFault(charKind(s, at));
  // Only a one- or two-character value that starts and ends with '.' is "." or "..".
  return n <= 2 && s.charCodeAt(0) === 0x2e && s.charCodeAt(n - 1) === 0x2e ? 'is "." or ".."' : undefined;
}

/**
 * The message for a field `value` that `tokenFault` refuses, or undefined when it is a
 * token: `<label> <fault>`, and for a refused character which one, where, and the value
 * escaped (`quoteInput`): `the zone contains a bidi control character: U+202E at offset 2
 * of "us\u202eeast"`.
 */
export function tokenFaultMessage(label: string, value: string): string | undefined {
  const fault = tokenFault(value);
  if (fault === undefined) return undefined;
  const at = tokenCharFaultAt(value);
  return at < 0 ? `${label} ${fault}` : `${label} ${fault}: ${charFaultDetail(value, at)}`;
}

/** A segment that can be a field: see `tokenFault`. */
export function isToken(s: string): boolean {
  return tokenFault(s) === undefined;
}

/**
 * Reads a field for `format`. Accepts strings and, for numeric IDs given as numbers,
 * integers; anything else is reported as missing.
 */
export function readField(fields: Readonly<Record<string, unknown>>, name: string): string | undefined {
  const value = fields[name];
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  if (typeof value === 'bigint') return value.toString();
  return undefined;
}

/** The scheme `format` should write: the caller's `scheme` field when it is one of the cloud's. */
export function chosenScheme(fields: Readonly<Record<string, unknown>>, schemes: readonly string[]): string {
  const asked = fields.scheme;
  return typeof asked === 'string' && schemes.includes(asked) ? asked : schemes[0]!;
}

export function formatted(s: string): Either<ProviderIDError, string> {
  return right(s);
}

export function missingField(cloud: string, field: string): Either<ProviderIDError, string> {
  return left(providerIDError('invalid-field', `${field} is required`, { cloud, field }));
}

/**
 * For `format`: reads the fields `names` (as `readField` does), each required, and writes
 * them with `write`; the first one missing is reported instead.
 */
export function formatFields<const N extends string>(
  cloud: string,
  fields: Readonly<Record<string, unknown>>,
  names: readonly N[],
  write: (values: Readonly<Record<N, string>>) => string,
): Either<ProviderIDError, string> {
  const values = {} as Record<N, string>;
  for (const name of names) {
    const value = readField(fields, name);
    if (value === undefined) return missingField(cloud, name);
    values[name] = value;
  }
  return formatted(write(values));
}

/** A field read from one segment of the ID; an `optional` one may be empty. */
export interface SegmentField {
  readonly name: string;
  readonly optional?: boolean;
  /** How errors name the field ('the server ID'); the field name by default. */
  readonly label?: string;
}

/**
 * Reads `segments` (already counted by the caller) into the fields `names`, in order:
 * each must be a token, or empty when its field is optional. Segments beyond `names`
 * are not read.
 */
export function readSegments(
  cloud: string,
  scheme: string,
  segments: readonly string[],
  names: readonly SegmentField[],
): FieldsResult {
  const fields: Record<string, string> = { scheme };
  for (let i = 0; i < names.length; i++) {
    const { name, optional, label = name } = names[i]!;
    const value = segments[i]!;
    const fault = optional && value === '' ? undefined : tokenFaultMessage(label, value);
    if (fault !== undefined) return invalidField(cloud, name, fault);
    fields[name] = value;
  }
  return right(fields as ProviderIDFields);
}

/** One shape of a '/'-separated ID: its fields by position, and values every ID of that shape has. */
export interface SegmentLayout {
  readonly fields: readonly SegmentField[];
  /** Added to what the layout reads (`legacy: true`, or what a short form leaves implied). */
  readonly implied?: Readonly<Record<string, string | boolean>>;
}

/**
 * Reads `rest`, split at '/', with the layout that has as many fields as there are
 * segments (a cloud's legacy short form beside its current one); when none has, the ID is
 * malformed and `expected` says what it should look like.
 */
export function readLayouts(
  cloud: string,
  scheme: string,
  rest: string,
  layouts: readonly SegmentLayout[],
  expected: string,
): FieldsResult {
  const segments = rest.split('/');
  const layout = layouts.find((l) => l.fields.length === segments.length);
  if (layout === undefined) return malformed(cloud, `expected ${expected} (got ${segments.length} segments)`);
  const read = readSegments(cloud, scheme, segments, layout.fields);
  return layout.implied === undefined || read._tag === 'Left'
    ? read
    : right({ ...read.right, ...layout.implied });
}

/** For `format`: `prefix` and the fields `names` joined by '/' (absent optional ones empty). */
export function formatSegments(
  cloud: string,
  prefix: string,
  fields: Readonly<Record<string, unknown>>,
  names: readonly SegmentField[],
): Either<ProviderIDError, string> {
  let written = prefix;
  for (let i = 0; i < names.length; i++) {
    const { name, optional } = names[i]!;
    const value = readField(fields, name) ?? (optional ? '' : undefined);
    if (value === undefined) return missingField(cloud, name);
    written += i === 0 ? value : `/${value}`;
  }
  return formatted(written);
}

/** How a single-token grammar validates its token and folds it for identity. */
export interface TokenRule {
  /** True when the token is acceptable. */
  readonly test: (token: string) => boolean;
  /** What the token must look like, for error messages. */
  readonly expected: string;
  /** How identity compares the token (default: exactly). */
  readonly fold?: (token: string) => string;
  /** How `format` writes the token (default: unchanged). */
  readonly canonical?: (token: string) => string;
}

const OPAQUE_EXPECTED =
  'a non-empty ID without "/", white space, control or invisible characters, other than "." and ".."';

export const tokenRules = {
  /** Any segment that can be a field (see `tokenFault`). */
  opaque: { test: isToken, expected: OPAQUE_EXPECTED },
  /** A UUID or other opaque token; UUIDs compare case-insensitively. */
  opaqueUUID: { test: isToken, expected: OPAQUE_EXPECTED, fold: foldUUID },
  /** A decimal integer (Go strconv.Atoi / ParseInt 64, no sign). */
  int64: {
    test: isInt64Text,
    expected: 'a decimal integer',
    fold: canonicalInteger,
  },
} satisfies Record<string, TokenRule>;

/** Description of a cloud whose IDs are `<scheme>://<token>` and nothing else. */
export interface SingleTokenCloud {
  readonly cloud: string;
  readonly title: string;
  readonly schemes: readonly string[];
  /** The field name the token is reported under (`dropletId`, `vmName`). */
  readonly field: string;
  readonly rule: TokenRule;
  /**
   * Leading-slash counts accepted after "://" (default [0]); the first is what `format`
   * writes (CAPD writes `docker:////name`, so Docker uses [2]).
   */
  readonly slashes?: readonly number[];
  /**
   * Whether a bare token (no scheme) parses when the caller names this cloud: true for clouds
   * whose own parser only strips the prefix (TrimPrefix); clouds that check the prefix
   * reject bare tokens.
   */
  readonly bareWhenNamed?: boolean;
}

/**
 * A grammar for clouds whose providerID is one opaque token behind the scheme
 * (DigitalOcean, Linode, KubeVirt, Vultr, ...). Identity is the folded token; every scheme
 * of the cloud shares it (legacy and current spellings match).
 */
export function singleTokenGrammar(spec: SingleTokenCloud): CloudProviderIDGrammar {
  const { cloud, schemes, field, rule } = spec;
  const slashes = spec.slashes ?? [0];
  const fold = rule.fold ?? ((t: string) => t);
  const readToken = (token: string, scheme: string): FieldsResult => {
    if (token === '') return invalidField(cloud, field, `${field} is empty`);
    if (!rule.test(token)) {
      // A refused character is named, and the quoted token shows the text around it.
      const at = tokenCharFaultAt(token);
      const where = at < 0 ? '' : `, with ${codePointName(token, at)} at offset ${at}`;
      const got = quoteInput(token, Math.max(at, 0));
      return invalidField(cloud, field, `${field} must be ${rule.expected} (got ${got}${where})`);
    }
    return right({ scheme, [field]: token });
  };
  const readAfterSlashes = (rest: string, scheme: string): FieldsResult => {
    let lead = 0;
    while (lead < rest.length && rest.charCodeAt(lead) === 0x2f) lead++;
    if (!slashes.includes(lead)) {
      const want = slashes.map((n) => `${scheme}://${'/'.repeat(n)}<${field}>`).join(' or ');
      return malformed(cloud, `expected ${want}`);
    }
    return readToken(rest.slice(lead), scheme);
  };
  return {
    cloud,
    title: spec.title,
    schemes,
    parse(id, named) {
      if (id.scheme === '' && named && spec.bareWhenNamed) return readToken(id.rest, '');
      return readAfterScheme(cloud, id, schemes, readAfterSlashes);
    },
    format: (fields) =>
      formatFields(cloud, fields, [field], (values) => {
        const token = values[field]!;
        const written = rule.canonical ? rule.canonical(token) : token;
        return `${chosenScheme(fields, schemes)}://${'/'.repeat(slashes[0]!)}${written}`;
      }),
    identity: (fields): InstanceIdentity => ({ space: cloud, parts: [fold(String(fields[field]))] }),
  };
}

/** A positional grammar: the scheme, then one field a segment, in order (some may be empty). */
export interface PositionalSpec {
  readonly cloud: string;
  readonly title: string;
  readonly scheme: string;
  readonly fields: readonly SegmentField[];
  /** What an ID looks like, for errors (default: the scheme and `<field>` placeholders). */
  readonly expected?: string;
}

/**
 * A grammar for clouds whose IDs are a fixed list of fields (IBM, GCE): fields read by
 * position, the segment count fixed, identity every field.
 */
export function positionalGrammar(spec: PositionalSpec): CloudProviderIDGrammar {
  const { cloud, scheme } = spec;
  const shape = spec.expected ?? `${scheme}://${spec.fields.map((f) => `<${f.name}>`).join('/')}`;
  const layouts = [{ fields: spec.fields }];
  const readPositions = (rest: string, scheme: string) => readLayouts(cloud, scheme, rest, layouts, shape);
  return {
    cloud,
    title: spec.title,
    schemes: [scheme],
    parse: (id) => readAfterScheme(cloud, id, [scheme], readPositions),
    format: (fields) => formatSegments(cloud, `${scheme}://`, fields, spec.fields),
    identity: (fields) => ({ space: cloud, parts: spec.fields.map((f) => String(fields[f.name])) }),
  };
}
