import { type Either, isLeft, left, right } from 'fp-ts/lib/Either.js';
import { escapeInput, quoteInput } from './characters.js';
import { GENERIC_CLOUD, genericProviderIDGrammar } from './generic.js';
import { readField } from './grammar-kit.js';
import {
  partsEqual,
  structuralIdentity,
  structuralIdentityOfSplit,
  unqualifiedKey,
  withQualifier,
} from './identity.js';
import { isBlank, splitProviderID } from './split.js';
import {
  type CloudProviderIDGrammar,
  type InstanceIdentity,
  type ParsedProviderID,
  type ParseOptions,
  type ParseProviderIDResult,
  type ProviderIDError,
  type ProviderIDFields,
  providerIDError,
  type SameInstanceResult,
  type SplitProviderID,
} from './types.js';

/**
 * Thrown by `ProviderIDRegistry.register` for a wiring mistake, tagged `code` like every
 * capi-kit error: a second grammar for a cloud (`cloud-taken`) or a scheme (`scheme-taken`)
 * that another grammar already claims.
 */
export class GrammarConflictError extends Error {
  override readonly name = 'GrammarConflictError';
  constructor(
    readonly code: 'cloud-taken' | 'scheme-taken',
    message: string,
  ) {
    super(message);
  }
}

/**
 * Any string's identity for matching: the parsed ID's when a grammar accepts it,
 * otherwise the structural identity (scheme + non-empty segments) with the parse error.
 */
export interface IdentifiedProviderID {
  readonly input: string;
  readonly key: string;
  /** The key without qualifier (equal to `key` when the ID has none). */
  readonly unqualifiedKey: string;
  readonly identity: InstanceIdentity;
  readonly parsed?: ParsedProviderID;
  readonly error?: ProviderIDError;
}

/**
 * One shared cell per unqualified key, handed out with every ID that has that key. It is
 * scratch space for `ProviderIDIndex`: the index that owns a cell files its machines of
 * that instance there (slot numbers only), so matching a node costs the one memo lookup
 * that finds its keys. See provider-id-index.ts for the ownership rules.
 */
export interface IdentityCell {
  owner: unknown;
  group: number | number[] | undefined;
  /** The keys of the machine filed, while `group` is a single slot. */
  lone: IdentityKeys | undefined;
}

/** The two keys the index matches on (see IdentifiedProviderID), and their shared cell. */
export interface IdentityKeys {
  readonly key: string;
  readonly unqualifiedKey: string;
  /** Whether `key` has a qualifier (differs from `unqualifiedKey`); kept so the index tests a flag, not two strings. */
  readonly qualified: boolean;
  /** Whether the string is empty or only white space (it identifies no instance). */
  readonly blank: boolean;
  readonly cell: IdentityCell;
}

/**
 * A memo entry. The first string seen with an unqualified key carries that key's cell
 * itself, so for most IDs (one spelling per instance) keys and cell are one object: the
 * index reads one object per lookup, not two.
 */
class MemoKeys implements IdentityKeys, IdentityCell {
  owner: unknown = undefined;
  group: number | number[] | undefined = undefined;
  lone: IdentityKeys | undefined = undefined;
  readonly cell: IdentityCell;
  readonly qualified: boolean;

  constructor(
    readonly key: string,
    readonly unqualifiedKey: string,
    readonly blank: boolean,
    cell: IdentityCell | undefined,
  ) {
    this.cell = cell ?? this;
    this.qualified = key !== unqualifiedKey;
  }
}

/**
 * How many distinct strings `identityKeys` remembers per parse option before it starts
 * afresh: enough for the IDs of a large fleet's Machines and Nodes (a few hundred bytes
 * each), bounded so a process that sees ever new IDs does not grow without limit.
 */
const IDENTITY_MEMO_LIMIT = 2 ** 18;

/**
 * The set of cloud grammars in use, and everything that needs them: parse, format,
 * identity and same-instance checks. The generic Cluster API grammar is always present and
 * handles schemes no cloud claims. `providerIDRegistry` (all-clouds.ts) is one with every cloud.
 */
export class ProviderIDRegistry {
  readonly #byCloud = new Map<string, CloudProviderIDGrammar>();
  readonly #byScheme = new Map<string, CloudProviderIDGrammar>();
  // Lower-cased scheme -> its registered spelling, to explain "AWS://" instead of guessing.
  readonly #schemeByLowerCase = new Map<string, string>();
  readonly #bareClaimers: CloudProviderIDGrammar[] = [];
  // input -> keys per options.cloud (the plain memo when none is named), and unqualified
  // key -> cell. Emptied whenever a grammar is registered or they grow past their limit;
  // `memoGeneration` counts those times.
  readonly #keysMemo = new Map<string, Map<string, IdentityKeys>>();
  #plainKeysMemo = new Map<string, IdentityKeys>();
  readonly #cells = new Map<string, IdentityCell>();
  #memoGeneration = 0;

  constructor(grammars: Iterable<CloudProviderIDGrammar> = []) {
    this.register(genericProviderIDGrammar);
    for (const grammar of grammars) this.register(grammar);
  }

  /** Adds a grammar. Throws on a cloud name or scheme already taken: a wiring mistake. */
  register(grammar: CloudProviderIDGrammar): this {
    if (this.#byCloud.has(grammar.cloud))
      throw new GrammarConflictError(
        'cloud-taken',
        `providerID cloud '${grammar.cloud}' is already registered`,
      );
    for (const scheme of grammar.schemes) {
      const owner = this.#byScheme.get(scheme);
      if (owner) {
        throw new GrammarConflictError(
          'scheme-taken',
          `providerID scheme '${scheme}' is already registered by '${owner.cloud}'`,
        );
      }
    }
    this.#byCloud.set(grammar.cloud, grammar);
    for (const scheme of grammar.schemes) {
      this.#byScheme.set(scheme, grammar);
      this.#schemeByLowerCase.set(scheme.toLowerCase(), scheme);
    }
    if (grammar.claimsBare) this.#bareClaimers.push(grammar);
    this.#forget();
    return this;
  }

  /** Every registered cloud name, `generic` first. */
  clouds(): string[] {
    return [...this.#byCloud.keys()];
  }

  grammar(cloud: string): CloudProviderIDGrammar | undefined {
    return this.#byCloud.get(cloud);
  }

  /** The grammar that owns `scheme`, if any. */
  grammarForScheme(scheme: string): CloudProviderIDGrammar | undefined {
    return this.#byScheme.get(scheme);
  }

  /**
   * Parses a providerID. The scheme picks the cloud (a scheme no cloud claims is an
   * `unknown-scheme` error); a string without a scheme is parsed only when `options.cloud`
   * names the cloud or exactly one cloud's unambiguous bare shape fits (Azure resource
   * path, OCI OCID, Alibaba region.instance, EC2 instance ID). Naming the cloud `generic`
   * applies Cluster API's own grammar to any string.
   */
  parse(input: string, options: ParseOptions = {}): ParseProviderIDResult {
    const parsed = this.#parse(splitProviderID(input), options);
    return parsed instanceof ParsedID ? right(parsed) : left(parsed);
  }

  // parse() without the Either: the parsed ID (which keeps its unqualified key for
  // identify() and the index) or the error. Takes the split input so that identify() can
  // reuse the split when no grammar accepts it.
  #parse(split: SplitProviderID, options: ParseOptions): ParsedID | ProviderIDError {
    const input = split.input;
    if (isBlank(input)) return providerIDError('empty', 'the providerID is empty');
    let grammar: CloudProviderIDGrammar | undefined;
    let named = false;
    if (options.cloud !== undefined) {
      grammar = this.#byCloud.get(options.cloud);
      if (!grammar) {
        return providerIDError(
          'unknown-cloud',
          `unknown cloud ${quoteInput(options.cloud)} (known: ${this.clouds().join(', ')})`,
        );
      }
      named = true;
    } else if (split.scheme !== '') {
      grammar = this.#byScheme.get(split.scheme);
      if (!grammar) {
        const known = this.#schemeByLowerCase.get(split.scheme.toLowerCase());
        if (known !== undefined) {
          const owner = this.#byScheme.get(known)!;
          return providerIDError(
            'wrong-scheme',
            `schemes are case-sensitive: ${quoteInput(split.scheme)} should be written ${quoteInput(known)}`,
            { cloud: owner.cloud },
          );
        }
        // No cloud claims it: report it rather than call it valid. Matching still works
        // (by structure), and naming the cloud "generic" applies Cluster API's own rule.
        const generic = genericProviderIDGrammar.parse(split, false);
        const fits = isLeft(generic)
          ? `it does not fit the generic grammar either (${generic.left.message})`
          : `it fits Cluster API's generic grammar (parse it with cloud "${GENERIC_CLOUD}")`;
        return providerIDError(
          'unknown-scheme',
          `no cloud grammar knows the scheme ${quoteInput(split.scheme)}; ${fits}`,
        );
      }
    } else {
      const claimers = this.#bareClaimers.filter((g) => g.claimsBare!(input));
      if (claimers.length !== 1) {
        const why =
          claimers.length === 0
            ? 'its shape matches no cloud'
            : `its shape fits several clouds (${claimers.map((g) => g.cloud).join(', ')})`;
        return providerIDError('no-scheme', `no scheme, and ${why}; name the cloud to parse a bare ID`);
      }
      grammar = claimers[0]!;
    }
    const fields = grammar.parse(split, named);
    if (isLeft(fields)) return fields.left;
    return new ParsedID(input, grammar, fields.right);
  }

  /**
   * Builds the canonical providerID of `cloud` from fields, and checks it by parsing it
   * back: fields that would write an ID the cloud's grammar rejects are an error.
   */
  format(cloud: string, fields: Readonly<Record<string, unknown>>): Either<ProviderIDError, string> {
    const grammar = this.#byCloud.get(cloud);
    if (!grammar) {
      return left(
        providerIDError(
          'unknown-cloud',
          `unknown cloud ${quoteInput(cloud)} (known: ${this.clouds().join(', ')})`,
        ),
      );
    }
    const written = grammar.format(fields);
    if (isLeft(written)) return written;
    const check = grammar.parse(splitProviderID(written.right), true);
    if (isLeft(check)) {
      return left(
        providerIDError(
          'invalid-field',
          `these fields make ${quoteInput(written.right)}, which is not valid: ${check.left.message}`,
          {
            cloud,
            ...(check.left.field === undefined ? {} : { field: check.left.field }),
          },
        ),
      );
    }
    const drift = driftedField(fields, check.right);
    if (drift !== undefined) {
      return left(
        providerIDError(
          'invalid-field',
          `these fields make ${quoteInput(written.right)}, which reads back as another ID: ${drift.name} is ${quoteInput(drift.read)}, not ${quoteInput(drift.given)}`,
          { cloud, field: drift.name },
        ),
      );
    }
    return written;
  }

  /** The identity used for matching; never fails (see IdentifiedProviderID). */
  identify(input: string, options: ParseOptions = {}): IdentifiedProviderID {
    const split = splitProviderID(input);
    const parsed = this.#parse(split, options);
    if (!(parsed instanceof ParsedID)) {
      const loose =
        split.scheme === '' ? undefined : this.#byScheme.get(split.scheme)?.looseIdentity?.(split);
      const identity = loose ?? structuralIdentityOfSplit(split);
      const unqualified = unqualifiedKey(identity);
      const key = withQualifier(unqualified, identity);
      return { input, key, unqualifiedKey: unqualified, identity, error: parsed };
    }
    return {
      input,
      key: parsed.key,
      unqualifiedKey: parsed.unqualifiedKey,
      identity: parsed.identity,
      parsed,
    };
  }

  /**
   * `identify(input, options)`'s keys, memoised: each distinct string is parsed and its keys
   * built once, however many times it is looked up (a Node usually carries its Machine's own
   * string, and matching runs again on every resync). The keys are strings, so sharing them
   * between callers is safe.
   */
  identityKeys(input: string, options: ParseOptions = {}): IdentityKeys {
    const keys = this.#memoFor(options.cloud).get(input);
    return keys !== undefined ? keys : this.#rememberKeys(input, options);
  }

  // The memo of one parse option (most callers name no cloud: that one needs no lookup).
  #memoFor(cloud: string | undefined): Map<string, IdentityKeys> {
    if (cloud === undefined) return this.#plainKeysMemo;
    let memo = this.#keysMemo.get(cloud);
    if (memo === undefined) {
      memo = new Map();
      this.#keysMemo.set(cloud, memo);
    }
    return memo;
  }

  #rememberKeys(input: string, options: ParseOptions): IdentityKeys {
    if (this.#memoFor(options.cloud).size >= IDENTITY_MEMO_LIMIT || this.#cells.size >= IDENTITY_MEMO_LIMIT)
      this.#forget();
    const id = this.identify(input, options);
    const keys = new MemoKeys(id.key, id.unqualifiedKey, isBlank(input), this.#cells.get(id.unqualifiedKey));
    if (keys.cell === keys) this.#cells.set(id.unqualifiedKey, keys);
    this.#memoFor(options.cloud).set(input, keys);
    return keys;
  }

  /**
   * How many times the memo behind `identityKeys` has started afresh. Cells handed out
   * before belong to no key any more; an index that filed machines in them must re-file.
   */
  get memoGeneration(): number {
    return this.#memoGeneration;
  }

  #forget(): void {
    this.#keysMemo.clear();
    this.#plainKeysMemo = new Map();
    this.#cells.clear();
    this.#memoGeneration++;
  }

  /**
   * Whether a Node's and a Machine's providerIDs denote the same instance, with the
   * reason. Equal identity keys mean "same"; an absent qualifier (region, zone) on one side
   * still matches; a cloud may declare a pair undecidable ("unknown"). Strings no grammar
   * accepts are compared by scheme and non-empty segments.
   */
  sameInstance(nodeID: string, machineID: string, options: ParseOptions = {}): SameInstanceResult {
    if (isBlank(nodeID) || isBlank(machineID)) {
      const which = isBlank(nodeID)
        ? isBlank(machineID)
          ? 'both providerIDs are'
          : 'the node providerID is'
        : 'the machine providerID is';
      return {
        match: false,
        verdict: 'unknown',
        reason: `${which} empty: an empty ID identifies no instance`,
      };
    }
    return compareIdentified(this, this.identify(nodeID, options), this.identify(machineID, options));
  }
}

/**
 * A parsed ID. `canonical` is written when first read (matching never needs it); a class
 * keeps construction cheap at index scale, and toJSON keeps `canonical` in JSON output.
 */
class ParsedID implements ParsedProviderID {
  readonly cloud: string;
  readonly scheme: string;
  // Identity, keys and canonical string are made on first read: a caller that wants only
  // the verdict or the fields builds none of them (matching reads the keys at once).
  #identity: InstanceIdentity | undefined;
  #key: string | undefined;
  // Kept for identify() and the index; not part of the parsed ID's data (nor of its JSON).
  #unqualifiedKey: string | undefined;
  #canonical: string | undefined;

  constructor(
    readonly input: string,
    private readonly grammar: CloudProviderIDGrammar,
    readonly fields: ProviderIDFields,
  ) {
    this.cloud = grammar.cloud;
    this.scheme = fields.scheme;
  }

  get identity(): InstanceIdentity {
    if (this.#identity === undefined) this.#identity = this.grammar.identity(this.fields);
    return this.#identity;
  }

  get unqualifiedKey(): string {
    if (this.#unqualifiedKey === undefined) this.#unqualifiedKey = unqualifiedKey(this.identity);
    return this.#unqualifiedKey;
  }

  get key(): string {
    if (this.#key === undefined) this.#key = withQualifier(this.unqualifiedKey, this.identity);
    return this.#key;
  }

  get canonical(): string {
    if (this.#canonical === undefined) {
      const written = this.grammar.format(this.fields);
      this.#canonical = isLeft(written) ? this.input : written.right;
    }
    return this.#canonical;
  }

  toJSON() {
    const { input, cloud, scheme, fields, key, canonical, identity } = this;
    return { input, cloud, scheme, fields, key, canonical, identity };
  }
}

/**
 * The first field the caller gave that the written ID reads back differently, if any: a
 * separator inside a field (an Alibaba region `cn.hz`, an AWS zone `a/b`) or a field the
 * grammar cannot write (AWS `kind: fargate` with an EC2 zone) would otherwise yield a valid
 * ID of another instance. Only the fields the ID reads back are compared (`scheme` is the
 * caller's wish, not the ID's), and a grammar's canonical lower case is not a difference.
 */
function driftedField(
  given: Readonly<Record<string, unknown>>,
  read: ProviderIDFields,
): { name: string; given: string; read: string } | undefined {
  for (const name of Object.keys(read)) {
    if (name === 'scheme') continue;
    const got = read[name];
    if (typeof got === 'boolean') {
      const asked = given[name];
      if (typeof asked === 'boolean' && asked !== got)
        return { name, given: String(asked), read: String(got) };
      continue;
    }
    const asked = readField(given, name);
    if (asked === undefined || got === undefined || asked === got || asked.toLowerCase() === got) continue;
    return { name, given: asked, read: got };
  }
  return undefined;
}

/** Builds a registry from grammars (the generic grammar is always included). */
export function createProviderIDRegistry(grammars: Iterable<CloudProviderIDGrammar>): ProviderIDRegistry {
  return new ProviderIDRegistry(grammars);
}

function describe(id: IdentifiedProviderID): string {
  if (id.parsed)
    return id.parsed.cloud === GENERIC_CLOUD
      ? `${quoteInput(id.parsed.scheme)} (no cloud grammar)`
      : id.parsed.cloud;
  const scheme = splitProviderID(id.input).scheme;
  const owner = id.error?.cloud;
  return owner
    ? `an invalid ${owner} ID (${id.error?.message})`
    : scheme
      ? `${quoteInput(scheme)} (unparsed)`
      : 'a bare string';
}

const schemeText = (scheme: string) => (scheme === '' ? 'no scheme' : `scheme ${quoteInput(scheme)}`);

// The parts of an identity as reasons show them: bare, as before, but escaped and cut to a
// sane length (an unparsed ID's parts are whatever the string held).
function partsText(identity: InstanceIdentity): string {
  return escapeInput(identity.parts.join('/'));
}

/** The comparison behind `sameInstance`, on identities already computed. */
export function compareIdentified(
  registry: ProviderIDRegistry,
  a: IdentifiedProviderID,
  b: IdentifiedProviderID,
): SameInstanceResult {
  const ia = a.identity;
  const ib = b.identity;
  if (ia.space !== ib.space) {
    // A valid ID against an invalid one of the same scheme with the same segments (e.g.
    // `docker:////c` vs `docker:///c`): probably one instance written with the wrong number
    // of slashes, but the invalid side's meaning is not defined, so do not claim a match.
    const invalid = a.parsed ? b : a;
    if (Boolean(a.parsed) !== Boolean(b.parsed) && invalid.identity.space !== '~') {
      const sa = structuralIdentity(a.input);
      const sb = structuralIdentity(b.input);
      if (sa.space === sb.space && partsEqual(sa.parts, sb.parts)) {
        return {
          match: false,
          verdict: 'unknown',
          reason: `same scheme and segments, but ${quoteInput(invalid.input)} is ${describe(invalid)}; likely the same instance written with the wrong number of slashes`,
        };
      }
    }
    return {
      match: false,
      verdict: 'different',
      reason: `different clouds or ID families: ${describe(a)} vs ${describe(b)}`,
    };
  }
  // (two unparsed IDs of one scheme, or two bare strings, have no cloud to name)
  const cloud = a.parsed?.cloud ?? b.parsed?.cloud;
  const cloudSpace = cloud === undefined ? '' : `${cloud} `;
  if (!partsEqual(ia.parts, ib.parts)) {
    if (a.parsed && b.parsed && a.parsed.cloud === b.parsed.cloud) {
      const why = registry.grammar(a.parsed.cloud)?.undecidable?.(a.parsed.fields, b.parsed.fields);
      if (why !== undefined) return { match: false, verdict: 'unknown', reason: why };
    }
    return {
      match: false,
      verdict: 'different',
      reason: `different ${cloudSpace}instances: ${partsText(ia)} vs ${partsText(ib)}`,
    };
  }
  const qa = ia.qualifier ?? '';
  const qb = ib.qualifier ?? '';
  const qualifierName = ia.qualifierName ?? ib.qualifierName ?? 'location';
  if (qa !== '' && qb !== '' && qa !== qb) {
    return {
      match: false,
      verdict: 'different',
      reason: `same ${cloudSpace}instance ID ${partsText(ia)} but different ${qualifierName}: ${escapeInput(qa)} vs ${escapeInput(qb)}`,
    };
  }
  if (a.input === b.input) return { match: true, verdict: 'same', reason: 'identical strings' };
  if (!a.parsed || !b.parsed) {
    const note =
      qa !== qb ? `; the ${qualifierName} (${escapeInput(qa || qb)}) is given on one side only` : '';
    return {
      match: true,
      verdict: 'same',
      reason: `not both valid for a cloud grammar (${describe(a.parsed ? b : a)}); read by their shape they name the same instance ${partsText(ia)}${note}`,
    };
  }
  if (qa !== qb) {
    return {
      match: true,
      verdict: 'same',
      reason: `same ${cloudSpace}instance ${partsText(ia)}; the ${qualifierName} (${escapeInput(qa || qb)}) is given on one side only`,
    };
  }
  const schemes =
    a.parsed.scheme !== b.parsed.scheme
      ? ` (${schemeText(a.parsed.scheme)} and ${schemeText(b.parsed.scheme)} name the same instance)`
      : '';
  return {
    match: true,
    verdict: 'same',
    reason: `same ${cloudSpace}instance ${partsText(ia)}, spelled differently${schemes}`,
  };
}
