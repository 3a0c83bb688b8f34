import type { ScalarTag } from 'yaml';
import { GO_YAML_NUMBER, goYamlNumber } from './go-yaml-number.js';

/**
 * How go-yaml v2 reads a scalar with an explicit `!!int`, `!!float`, `!!bool` or `!!null`
 * tag: as the value its text names in that type (any go-yaml spelling, quoted or not), or
 * not at all ("cannot decode !!str `abc` as a !!int"), which capi-kit refuses too.
 *
 * These tags come first in the schema: the `yaml` package resolves an explicit tag with the
 * first tag of that name that has no pattern, which would otherwise be one of the YAML 1.1
 * schema's number tags kept only for writing (`!!int 111` was read as binary, 1), or it
 * falls back to the text (`!!bool abc` was the string "abc").
 */

/** go-yaml's `.inf` and `.nan` spellings: floats only. */
const FLOAT_SPECIAL = /^([-+]?)\.(?:inf|Inf|INF)$|^\.(?:nan|NaN|NAN)$/;
/** After `_` are dropped: what Go's ParseInt takes, so go-yaml makes an integer of it. */
const INTEGER_TEXT = /^[-+]?(?:0[xXoObB].+|[0-9]+)$/;

function readNumber(source: string, integerOnly: boolean): number | undefined {
  const value = GO_YAML_NUMBER.test(source) ? goYamlNumber(source) : undefined;
  if (typeof value !== 'number') return undefined;
  return !integerOnly || INTEGER_TEXT.test(source.replaceAll('_', '')) ? value : undefined;
}

function readFloat(source: string): number | undefined {
  const special = FLOAT_SPECIAL.exec(source);
  if (special === null) return readNumber(source, false);
  if (special[0].startsWith('.n') || special[0].startsWith('.N')) return Number.NaN;
  return special[1] === '-' ? -Infinity : Infinity;
}

const TRUE = ['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON'];
const FALSE = ['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF'];
const BOOLEANS = new Map<string, boolean>([
  ...TRUE.map((t) => [t, true] as const),
  ...FALSE.map((t) => [t, false] as const),
]);
const NULLS = new Set(['', '~', 'null', 'Null', 'NULL']);

/** A tag name, and the value its text names in that type (undefined: none). */
const READERS: readonly [name: string, read: (source: string) => unknown][] = [
  ['int', (source) => readNumber(source, true)],
  ['float', readFloat],
  ['bool', (source) => BOOLEANS.get(source)],
  ['null', (source) => (NULLS.has(source) ? null : undefined)],
];

export const goYamlExplicitTags: readonly ScalarTag[] = READERS.map(([name, read]) => ({
  tag: `tag:yaml.org,2002:${name}`,
  resolve(source, onError) {
    const value = read(source);
    if (value !== undefined) return value as never;
    onError(`cannot read ${JSON.stringify(source)} as !!${name} (kubectl cannot either)`);
    return source;
  },
}));
