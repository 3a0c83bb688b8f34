import { applyPhaseRules, type PhaseFacts, type PhaseRule, type PhaseValue } from './rules.js';

/**
 * A state-machine view of a phase rule table, derived from the rules rather than written
 * by hand: starting from a new object (empty phase, every input false), it tries every
 * combination of input changes that can happen between two reconciles, runs the rules, and
 * records which phase follows which. Checks and diagrams read that derived graph, so they
 * cannot drift from the rules.
 */

/** Something in the world that changes one input of the rules. */
export interface PhaseEvent<Facts extends PhaseFacts, Event extends string> {
  readonly name: Event;
  /** What happens, in the object's terms. */
  readonly description: string;
  /** Who makes it happen (the core controller, the API server, another client). */
  readonly by: string;
  /** The input it changes and the value it gives it. */
  readonly fact: keyof Facts & string;
  readonly value: boolean;
  /** Inputs that must have these values for the event to happen at all. */
  readonly requires?: Partial<Facts>;
}

/** How to say an input's value in prose, and why it cannot go back once true. */
export interface FactDescription {
  readonly whenTrue: string;
  readonly whenFalse: string;
  /** Set for inputs nothing turns back to false once true: the reason. */
  readonly sticky?: string;
}

export interface PhaseModel<Facts extends PhaseFacts, Phase extends string, Event extends string> {
  readonly kind: string;
  /** Every typed phase value, including ones no rule writes. */
  readonly phases: readonly Phase[];
  readonly rules: readonly PhaseRule<Facts, Phase>[];
  /** The inputs of a newly created object. */
  readonly initialFacts: Facts;
  readonly facts: { readonly [K in keyof Facts]: FactDescription };
  readonly events: readonly PhaseEvent<Facts, Event>[];
}

/** One step of the phase between two consecutive writes. `from: ""` is a new object. */
export interface PhaseTransition<Phase extends string, Event extends string> {
  readonly from: Phase;
  readonly to: Phase;
  /**
   * The smallest sets of events that, happening between two reconciles, produce this step
   * from some reachable object in phase `from`. `[]` means "a reconcile with no news".
   */
  readonly triggers: readonly (readonly Event[])[];
}

/**
 * What the old phase is known to imply.
 * - `controller` (default): the old phase was written by these rules, and the inputs have
 *   since changed only in the ways the controllers and the API server allow (a deletion
 *   cannot be withdrawn, ready flags and nodeRef are never cleared).
 * - `any`: the old phase may have come from anywhere (conversion, a hand edit), so the
 *   object's inputs may be anything; only the rules themselves constrain the step.
 * An old phase that the rules never write (an unrecognised string, `deleted`) is always
 * checked as `any`, because nothing is known about the inputs that came with it.
 */
export type TransitionHistory = 'controller' | 'any';

export interface TransitionCheckOptions {
  readonly history?: TransitionHistory;
}

export type TransitionCheck<Event extends string> =
  | {
      readonly ok: true;
      readonly from: string;
      readonly to: string;
      /** For a `controller` check: the event sets that produce the step (see PhaseTransition). */
      readonly triggers: readonly (readonly Event[])[];
    }
  | { readonly ok: false; readonly from: string; readonly to: string; readonly reason: string };

export interface PhaseStateMachine<Facts extends PhaseFacts, Phase extends string, Event extends string> {
  readonly model: PhaseModel<Facts, Phase, Event>;
  /** Every step reachable from a new object, self-steps (phase kept) included. */
  readonly transitions: readonly PhaseTransition<Phase, Event>[];
  /** Phases some reachable object can be in (`""` for a new object). */
  readonly reachablePhases: readonly Phase[];
  /** Whether the rules can produce the observed step `from → to`, and if not, why. */
  readonly check: (
    from: PhaseValue<Phase> | null | undefined,
    to: PhaseValue<Phase> | null | undefined,
    options?: TransitionCheckOptions,
  ) => TransitionCheck<Event>;
}

type FactKey = string;

function keyOf<Facts extends PhaseFacts>(names: readonly string[], facts: Facts): FactKey {
  return names.map((name) => (facts[name] ? '1' : '0')).join('');
}

function allFactCombinations<Facts extends PhaseFacts>(names: readonly string[]): Facts[] {
  const combinations: Facts[] = [];
  for (let bits = 0; bits < 2 ** names.length; bits += 1) {
    combinations.push(Object.fromEntries(names.map((name, i) => [name, (bits & (1 << i)) !== 0])) as Facts);
  }
  return combinations;
}

/** Drops every trigger set that contains a smaller one, then orders them (shortest first). */
function minimalSets<Event extends string>(sets: readonly (readonly Event[])[], order: readonly Event[]) {
  const unique = new Map(sets.map((set) => [[...set].sort().join('+'), set]));
  const distinct = [...unique.values()];
  const minimal = distinct.filter(
    (set) =>
      !distinct.some((other) => other.length < set.length && other.every((event) => set.includes(event))),
  );
  const rank = (set: readonly Event[]) => set.map((e) => String(order.indexOf(e)).padStart(3, '0')).join();
  return minimal
    .map((set) => [...set].sort((a, b) => order.indexOf(a) - order.indexOf(b)))
    .sort((a, b) => a.length - b.length || rank(a).localeCompare(rank(b)));
}

export function buildPhaseStateMachine<Facts extends PhaseFacts, Phase extends string, Event extends string>(
  model: PhaseModel<Facts, Phase, Event>,
): PhaseStateMachine<Facts, Phase, Event> {
  const names = Object.keys(model.initialFacts);
  const everyFacts = allFactCombinations<Facts>(names);
  const eventOrder = model.events.map((event) => event.name);
  const decide = (previous: string, facts: Facts) => applyPhaseRules(model.rules, previous, facts).phase;

  /** Every input combination reachable from `start` by events, with a shortest event list. */
  const closureCache = new Map<FactKey, Map<FactKey, { facts: Facts; events: Event[] }>>();
  function closure(start: Facts) {
    const startKey = keyOf(names, start);
    const cached = closureCache.get(startKey);
    if (cached !== undefined) return cached;
    const seen = new Map([[startKey, { facts: start, events: [] as Event[] }]]);
    const queue = [start];
    for (let facts = queue.shift(); facts !== undefined; facts = queue.shift()) {
      const path = seen.get(keyOf(names, facts))!.events;
      for (const event of model.events) {
        if (facts[event.fact] === event.value) continue;
        const required = Object.entries(event.requires ?? {});
        if (!required.every(([name, value]) => facts[name] === value)) continue;
        const next = { ...facts, [event.fact]: event.value } as Facts;
        const nextKey = keyOf(names, next);
        if (seen.has(nextKey)) continue;
        seen.set(nextKey, { facts: next, events: [...path, event.name] });
        queue.push(next);
      }
    }
    closureCache.set(startKey, seen);
    return seen;
  }

  // Explore (phase, inputs) states from a new object; each step is "events, then a reconcile".
  const statesByPhase = new Map<string, Map<FactKey, Facts>>();
  const triggersByStep = new Map<string, { from: Phase; to: Phase; sets: Event[][] }>();
  const queue: { phase: Phase; facts: Facts }[] = [{ phase: '' as Phase, facts: model.initialFacts }];
  statesByPhase.set('', new Map([[keyOf(names, model.initialFacts), model.initialFacts]]));
  for (let state = queue.shift(); state !== undefined; state = queue.shift()) {
    for (const { facts, events } of closure(state.facts).values()) {
      const to = decide(state.phase, facts) as Phase;
      const stepKey = `${state.phase}\u0000${to}`;
      const step = triggersByStep.get(stepKey) ?? { from: state.phase, to, sets: [] };
      step.sets.push(events);
      triggersByStep.set(stepKey, step);
      const known = statesByPhase.get(to) ?? new Map<FactKey, Facts>();
      statesByPhase.set(to, known);
      const factsKey = keyOf(names, facts);
      if (!known.has(factsKey)) {
        known.set(factsKey, facts);
        queue.push({ phase: to, facts });
      }
    }
  }

  const phaseOrder = (phase: string) => {
    const i = model.phases.indexOf(phase as Phase);
    return phase === '' ? -1 : i === -1 ? model.phases.length : i;
  };
  const transitions = [...triggersByStep.values()]
    .map(({ from, to, sets }) => ({ from, to, triggers: minimalSets(sets, eventOrder) }))
    .sort((a, b) => phaseOrder(a.from) - phaseOrder(b.from) || phaseOrder(a.to) - phaseOrder(b.to));
  const reachablePhases = [...statesByPhase.keys()].sort((a, b) => phaseOrder(a) - phaseOrder(b)) as Phase[];
  const writtenPhases = new Set<string>(model.rules.map((rule) => rule.phase));

  /** Inputs an object in phase `from` may have by its next reconcile. */
  function possibleFacts(from: string, history: TransitionHistory): Facts[] {
    const states = statesByPhase.get(from);
    if (history === 'any' || states === undefined) return everyFacts;
    const reachable = new Map<FactKey, Facts>();
    for (const facts of states.values()) {
      for (const [key, entry] of closure(facts)) reachable.set(key, entry.facts);
    }
    return [...reachable.values()];
  }

  const describe = (name: string, value: boolean) => {
    const fact = model.facts[name as keyof Facts];
    return value ? fact.whenTrue : fact.whenFalse;
  };

  function whyNot(from: string, to: string, possible: readonly Facts[]): string {
    const shown = (phase: string) => (phase === '' ? 'empty' : `"${phase}"`);
    if (to === '') {
      return `the rules never write an empty phase: over an empty phase the first rule writes "${model.rules[0]?.phase}"`;
    }
    if (!writtenPhases.has(to)) {
      return (model.phases as readonly string[]).includes(to)
        ? `"${to}" is a ${model.kind} phase value, but no rule writes it (the v0.2 controllers never set it)`
        : `"${to}" is not a v1alpha2 ${model.kind} phase: the rules write only ${[...writtenPhases].map((p) => `"${p}"`).join(', ')}, or keep the stored phase, which was ${shown(from)}`;
    }
    const producing = everyFacts.filter((facts) => decide(from, facts) === to);
    if (producing.length === 0) {
      const conditions = model.rules.filter((rule) => rule.phase === to).map((rule) => rule.condition);
      return `"${to}" is written only when ${conditions.join(' or ')}, and the stored phase was ${shown(from)}`;
    }
    for (const name of names) {
      const value = possible[0]?.[name];
      if (value === undefined || !possible.every((facts) => facts[name] === value)) continue;
      if (!producing.every((facts) => facts[name] !== value)) continue;
      const fact = model.facts[name as keyof Facts];
      const because = value && fact.sticky !== undefined ? fact.sticky : 'nothing changes it from there';
      return `a ${model.kind} in phase ${shown(from)} has ${describe(name, value)}, and ${because}; "${to}" needs ${describe(name, !value)}`;
    }
    return `no inputs a ${model.kind} in phase ${shown(from)} can reach make the rules write "${to}"`;
  }

  function check(
    fromValue: string | null | undefined,
    toValue: string | null | undefined,
    options: TransitionCheckOptions = {},
  ): TransitionCheck<Event> {
    const from = fromValue ?? '';
    const to = toValue ?? '';
    const history = options.history ?? 'controller';
    const possible = possibleFacts(from, history);
    if (possible.some((facts) => decide(from, facts) === to)) {
      const step = history === 'controller' ? triggersByStep.get(`${from}\u0000${to}`) : undefined;
      return { ok: true, from, to, triggers: step === undefined ? [] : minimalSets(step.sets, eventOrder) };
    }
    return { ok: false, from, to, reason: whyNot(from, to, possible) };
  }

  return { model, transitions, reachablePhases, check };
}
