/**
 * What every phase vocabulary offers beside its values: the list in declaration order, a
 * guard, and the typed view upstream's `GetTypedPhase()` gives (anything unrecognised is
 * the `unknown` phase).
 */
export function phaseValues<Phase extends string>(values: Readonly<Record<string, Phase>>, unknown: Phase) {
  const all: readonly Phase[] = Object.values(values);
  const is = (value: unknown): value is Phase =>
    typeof value === 'string' && (all as readonly string[]).includes(value);
  const typed = (value: string | null | undefined): Phase => (is(value) ? value : unknown);
  return { all, is, typed };
}
