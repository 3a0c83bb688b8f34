import type { Either } from 'fp-ts/lib/Either.js';

/**
 * The fields of a parsed providerID. `scheme` is always present ("" when the input had
 * none); the other keys are the cloud's own (see docs/providerid.md). Values are strings,
 * except a few flags (e.g. Hetzner `legacyRobotPrefix`), so that every field survives JSON.
 */
export type ProviderIDFields = Readonly<Record<string, string | boolean>> & { readonly scheme: string };

/** What is wrong with a providerID, as a tag a program can branch on. */
export type ProviderIDErrorCode =
  /** The string is empty (or only white space). */
  | 'empty'
  /** No `scheme:` and the shape does not identify a cloud; name the cloud to parse it. */
  | 'no-scheme'
  /** A scheme that no registered cloud grammar claims. */
  | 'unknown-scheme'
  /** The caller named a cloud that no registered grammar knows. */
  | 'unknown-cloud'
  /** A scheme this cloud does not use (or a known scheme spelled in the wrong case). */
  | 'wrong-scheme'
  /** The separators or the number of path segments do not fit the cloud's grammar. */
  | 'malformed'
  /** One field has the wrong shape (e.g. a non-numeric droplet ID). */
  | 'invalid-field';

export interface ProviderIDError {
  readonly code: ProviderIDErrorCode;
  /** A sentence for people: what is wrong and, where it helps, what was expected. */
  readonly message: string;
  /** The cloud whose grammar rejected the input, when one was chosen. */
  readonly cloud?: string;
  /** The field that failed, for `invalid-field`. */
  readonly field?: string;
}

export function providerIDError(
  code: ProviderIDErrorCode,
  message: string,
  extra: { cloud?: string; field?: string } = {},
): ProviderIDError {
  return { code, message, ...extra };
}

/**
 * The generic split of a providerID, before any cloud looks at it: `scheme` is the text
 * before the first ':' when that text is a URI scheme, `separator` is "://" or ":" (KWOK's
 * `kwok:<node>`), and `rest` is what follows. Strings without a scheme have scheme "",
 * separator "" and the whole input as `rest`.
 */
export interface SplitProviderID {
  readonly input: string;
  readonly scheme: string;
  readonly separator: '://' | ':' | '';
  readonly rest: string;
}

/**
 * What makes an instance itself. Two IDs denote the same instance when `space` and every
 * entry of `parts` are equal and their qualifiers agree: equal, or absent on one side
 * (an OpenStack ID without a region, an AWS ID without a zone). `parts` are already folded
 * the way the cloud compares them (e.g. Azure paths lower-cased).
 */
export interface InstanceIdentity {
  /** Identity namespace: usually the cloud, sometimes finer (`hetzner-robot`). */
  readonly space: string;
  readonly parts: readonly string[];
  /** A location that may be left out by some emitters; "" or undefined when absent. */
  readonly qualifier?: string;
  /** What the qualifier is, for reasons ("region", "zone"). */
  readonly qualifierName?: string;
}

/** The grammar of one cloud's providerIDs: how to read, write and identify them. */
export interface CloudProviderIDGrammar {
  /** The cloud name used in results and on the command line (`aws`, `ibm-powervs`). */
  readonly cloud: string;
  /** A short human title for tables and readable output. */
  readonly title: string;
  /** Every scheme this cloud's IDs use; the first is the one `format` writes by default. */
  readonly schemes: readonly string[];
  /**
   * Reads the fields from a split input. `named` is true when the caller chose this cloud,
   * which lets a grammar accept forms it would not claim on shape alone (bare IDs).
   */
  readonly parse: (id: SplitProviderID, named: boolean) => Either<ProviderIDError, ProviderIDFields>;
  /**
   * True when a string without a scheme can only be this cloud's (an Azure resource path,
   * an OCI OCID). Grammars without an unambiguous bare form leave this out.
   */
  readonly claimsBare?: (input: string) => boolean;
  /** Builds the canonical string from fields (the names `parse` returns). */
  readonly format: (fields: Readonly<Record<string, unknown>>) => Either<ProviderIDError, string>;
  /** The identity of a successfully parsed ID. */
  readonly identity: (fields: ProviderIDFields) => InstanceIdentity;
  /**
   * The identity of an ID with one of this cloud's schemes that `parse` rejects, when its
   * shape still says which instance it means (AWS: last path token, zone as qualifier).
   * Its `space` must start with '~' so it never equals a valid ID's. Without it (or when it
   * returns undefined) such IDs get the structural identity: scheme + non-empty segments.
   */
  readonly looseIdentity?: (id: SplitProviderID) => InstanceIdentity | undefined;
  /**
   * For two parsed IDs of this cloud with different identities: a reason why the strings
   * cannot settle the question (e.g. legacy and current Metal3 forms), or undefined when
   * they are simply different instances.
   */
  readonly undecidable?: (a: ProviderIDFields, b: ProviderIDFields) => string | undefined;
}

/** A providerID that parsed: the cloud, its fields, and its identity key. */
export interface ParsedProviderID {
  readonly input: string;
  readonly cloud: string;
  readonly scheme: string;
  readonly fields: ProviderIDFields;
  /** Canonical identity key: equal keys mean the same instance (see docs/providerid.md). */
  readonly key: string;
  /** The canonical string `format` writes for these fields. */
  readonly canonical: string;
  readonly identity: InstanceIdentity;
}

export type ParseProviderIDResult = Either<ProviderIDError, ParsedProviderID>;

/** Options of `parse`: name the cloud to use its grammar regardless of the scheme. */
export interface ParseOptions {
  readonly cloud?: string;
}

/**
 * The answer to "do these two IDs denote the same instance?". `verdict` is tri-state:
 * "unknown" when the strings alone cannot tell; `match` is true only for "same".
 */
export interface SameInstanceResult {
  readonly match: boolean;
  readonly verdict: 'same' | 'different' | 'unknown';
  readonly reason: string;
}
