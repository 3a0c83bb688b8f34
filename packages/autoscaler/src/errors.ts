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
  /** The node's providerID denotes several machines. */
  | 'ambiguous-machine'
  /** A node's maintenance lease is held or reserved: it is never deleted. */
  | 'under-maintenance'
  /** The group's resource no longer exists. */
  | 'node-group-gone'
  /** Bounds of a candidate resource do not parse (cluster-autoscaler then lists no groups). */
  | 'invalid-scaling-bounds'
  /** createNodeGroupProvider's options are wrong (an auto-discovery spec that does not parse). */
  | 'invalid-options'
  /** The management or workload API refused or could not be reached. */
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
    } = {},
    options?: ErrorOptions,
  ) {
    super(message, options);
    if (details.path !== undefined) (this as { path?: string }).path = details.path;
  }
}

/** Go's `%q` of a string: what cluster-autoscaler's messages quote node ids with. */
export function goQuote(text: string): string {
  return JSON.stringify(text);
}

// The escapes strconv.QuoteRune uses for the control characters that have one.
const runeEscapes: Readonly<Record<number, string>> = {
  7: '\\a',
  8: '\\b',
  9: '\\t',
  10: '\\n',
  11: '\\v',
  12: '\\f',
  13: '\\r',
  39: "\\'",
  92: '\\\\',
};

/**
 * Go's `%q` applied to an int, which prints it as a quoted character: cluster-autoscaler's
 * "unable to delete … machine replicas are %q, minSize is %q" does that (3 → `'\x03'`).
 * Kept so that its text matches upstream's; the error's details carry the numbers.
 */
export function goQuoteInt(n: number): string {
  const escaped = runeEscapes[n];
  if (escaped !== undefined) return `'${escaped}'`;
  if (n < 0x20 || n === 0x7f) return `'\\x${n.toString(16).padStart(2, '0')}'`;
  if (n < 0x7f) return `'${String.fromCodePoint(n)}'`;
  if (n > 0x10ffff || (n >= 0xd800 && n <= 0xdfff)) return `'\\ufffd'`;
  if (n < 0xa0) return `'\\u00${n.toString(16)}'`;
  return `'${String.fromCodePoint(n)}'`;
}
