import type * as t from 'io-ts';

/** `isCluster`, `isClusterList`, …: a type guard per codec, named after its kind. */
export type GuardsFor<Codecs extends Readonly<Record<string, t.Mixed>>> = {
  readonly [Kind in keyof Codecs & string as `is${Kind}`]: (u: unknown) => u is t.TypeOf<Codecs[Kind]>;
};

/**
 * A version's type guards from its codecs by kind: each a full (lenient) check of the
 * value, not just of apiVersion and kind.
 */
export function guardsFor<Codecs extends Readonly<Record<string, t.Mixed>>>(
  codecs: Codecs,
): GuardsFor<Codecs> {
  const guards: Record<string, (u: unknown) => boolean> = {};
  for (const [kind, codec] of Object.entries(codecs)) guards[`is${kind}`] = (u) => codec.is(u);
  return guards as GuardsFor<Codecs>;
}
