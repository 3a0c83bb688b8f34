/**
 * Why a node-group operation was refused or failed. Messages keep cluster-autoscaler's
 * wording, so logs and alerts written for it still match; `code` is what programs test.
 */
export type NodeGroupErrorCode =
  /** increaseSize with delta <= 0: `size increase must be positive`. */
  | 'size-increase-not-positive'
  /** Above max: `size increase too large - desired:%d max:%d`. */
  | 'size-increase-too-large'
  /** decreaseTargetSize with delta >= 0: `size decrease must be negative`. */
  | 'size-decrease-not-negative'
  /** Below min: `size decrease too large - desired:%d min:%d`. */
  | 'size-decrease-too-large'
  /** `attempt to delete existing nodes targetSize:%d delta:%d existingNodes: %d`. */
  | 'would-delete-existing-nodes'
  /** `min size reached, nodes will not be deleted`. */
  | 'min-size-reached'
  /** Deleting that many nodes would go below min: `unable to delete %d machines in %q, …`. */
  | 'delete-below-min-size'
  /** `node %q doesn't belong to node group %q`. */
  | 'node-not-in-group'
  /** `no node group found for node %q`. */
  | 'no-node-group-for-node'
  /** `unknown machine for node %q`. */
  | 'unknown-machine-for-node'
  /**
   * The node's Machine on the server is another object than the one resolved (its uid
   * differs: deleted and re-created under the same name); it is not marked or deleted.
   */
  | 'machine-replaced'
  /** The node's providerID denotes several machines. */
  | 'ambiguous-machine'
  /** deleteNodes was given two nodes of one Machine (or one node twice). */
  | 'same-machine'
  /** A node's maintenance lease is held or reserved: it is never deleted. */
  | 'under-maintenance'
  /** The group's resource no longer exists. */
  | 'node-group-gone'
  /** A `capacity.cluster-autoscaler.kubernetes.io/…` annotation of the group does not parse. */
  | 'invalid-capacity-annotation'
  /**
   * The group's `spec.template.spec.infrastructureRef` is not a well-formed reference, or the
   * infrastructure machine template's `status.capacity` / `status.nodeInfo` does not parse
   * (`path` names the field).
   */
  | 'invalid-infrastructure-template'
  /** Bounds of a candidate resource do not parse (cluster-autoscaler then lists no groups). */
  | 'invalid-scaling-bounds'
  /** createNodeGroupProvider's options are wrong (an auto-discovery spec that does not parse). */
  | 'invalid-options'
  /**
   * The management or workload API refused or could not be reached, or answered with
   * something that is not the object asked for (`path` names the field; nothing was done
   * with it).
   */
  | 'api-error';

export class NodeGroupError extends Error {
  override readonly name = 'NodeGroupError';
  /** The JSON path to blame (an option, an annotation), as in `details.path`; absent when none applies. */
  declare readonly path?: string;
  constructor(
    readonly code: NodeGroupErrorCode,
    message: string,
    readonly details: {
      readonly node?: string;
      readonly group?: string;
      readonly holder?: string;
      /** HTTP status of an `api-error`, when the server answered. */
      readonly status?: number;
      readonly path?: string;
      /**
       * deleteNodes stopped part-way: the nodes it had already deleted (each marked, with
       * replicas lowered for it), in order; absent when it had deleted none.
       */
      readonly deleted?: readonly string[];
    } = {},
    options?: ErrorOptions,
  ) {
    super(message, options);
    if (details.path !== undefined) (this as { path?: string }).path = details.path;
  }
}

// Go's strconv.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space.
const GO_PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;
// Text that `%q` writes as it is: printable ASCII without a quote or a backslash.
const PLAIN_ASCII = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

// The escapes strconv uses for the control characters that have one.
const CONTROL_ESCAPES: Readonly<Record<number, string>> = {
  7: '\\a',
  8: '\\b',
  9: '\\t',
  10: '\\n',
  11: '\\v',
  12: '\\f',
  13: '\\r',
};

/**
 * One rune as strconv writes it between `quote`s: the quote and the backslash escaped,
 * printable runes as they are, the rest as \a…\v, \xNN, \uNNNN or \UNNNNNNNN. A code point
 * that is no valid rune (a lone surrogate, past U+10FFFF) is U+FFFD, which Go prints.
 */
function quotedRune(code: number, quote: '"' | "'"): string {
  if (code === quote.charCodeAt(0) || code === 0x5c) return `\\${String.fromCharCode(code)}`;
  if (!Number.isInteger(code) || code < 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff))
    return '\ufffd';
  const char = String.fromCodePoint(code);
  if (GO_PRINTABLE.test(char)) return char;
  const escaped = CONTROL_ESCAPES[code];
  if (escaped !== undefined) return escaped;
  if (code < 0x20 || code === 0x7f) return `\\x${code.toString(16).padStart(2, '0')}`;
  if (code < 0x10000) return `\\u${code.toString(16).padStart(4, '0')}`;
  return `\\U${code.toString(16).padStart(8, '0')}`;
}

/**
 * Go's `%q` of a string (strconv.Quote): what cluster-autoscaler's messages quote node ids
 * with. Unlike JSON, it escapes every rune Go does not print (DEL, C1 controls such as the
 * terminal's CSI U+009B, U+00A0, U+2028, format characters), so a hostile holder identity
 * or providerID reads as it would in upstream's messages and cannot drive a terminal.
 */
export function goQuote(text: string): string {
  if (PLAIN_ASCII.test(text)) return `"${text}"`;
  let out = '"';
  for (const char of text) out += quotedRune(char.codePointAt(0)!, '"');
  return `${out}"`;
}

/**
 * Go's `%q` applied to an int, which prints it as a quoted character: cluster-autoscaler's
 * "unable to delete … machine replicas are %q, minSize is %q" does that (3 → `'\x03'`).
 * Kept so that its text matches upstream's; the error's details carry the numbers.
 */
export function goQuoteInt(n: number): string {
  return `'${quotedRune(n, "'")}'`;
}
