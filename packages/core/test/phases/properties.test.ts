import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ClusterEvent,
  type ClusterPhaseSource,
  checkClusterTransition,
  checkMachineTransition,
  clusterEvents,
  clusterPhase,
  clusterPhases,
  type MachineEvent,
  type MachinePhaseSource,
  machineEvents,
  machinePhase,
  machinePhases,
} from './property-support.js';

// Deletion timestamps that Go reads as "no deletion requested" (absent, null, empty, the
// zero metav1.Time); every other generated one is a real date, so a deletion request. The
// properties classify timestamps with this list, never with the code under test.
const noDeletion: readonly (string | null | undefined)[] = [undefined, null, '', '0001-01-01T00:00:00Z'];
const timestamp = fc.oneof(
  fc.constantFrom(...noDeletion),
  fc
    .date({ min: new Date('2019-01-01'), max: new Date('2030-01-01'), noInvalidDate: true })
    .map((d) => d.toISOString()),
);
const deletionRequested = (deletionTimestamp: unknown) =>
  !noDeletion.includes(deletionTimestamp as string | null | undefined);
const optionalText = fc.oneof(fc.constant(undefined), fc.constant(null), fc.constant(''), fc.string());
const storedPhaseArb = (values: readonly string[]) =>
  fc.oneof(
    fc.constantFrom(...values),
    fc.constantFrom('Running', 'Creating', 'Ready'),
    fc.string(),
    fc.constant(undefined),
  );

const anyMachine: fc.Arbitrary<MachinePhaseSource> = fc.record({
  metadata: fc.record({ deletionTimestamp: timestamp }),
  spec: fc.record({ bootstrap: fc.record({ data: optionalText }) }),
  status: fc.record({
    phase: storedPhaseArb(machinePhases),
    bootstrapReady: fc.boolean(),
    infrastructureReady: fc.boolean(),
    nodeRef: fc.oneof(
      fc.constant(undefined),
      fc.constant(null),
      fc.constant({}),
      fc.constant({ name: 'n1' }),
    ),
    errorReason: optionalText,
    errorMessage: optionalText,
  }),
});

const anyCluster: fc.Arbitrary<ClusterPhaseSource> = fc.record({
  metadata: fc.record({ deletionTimestamp: timestamp }),
  spec: fc.record({
    infrastructureRef: fc.oneof(fc.constant(undefined), fc.constant(null), fc.constant({ name: 'c' })),
  }),
  status: fc.record({
    phase: storedPhaseArb(clusterPhases),
    infrastructureReady: fc.boolean(),
    errorReason: optionalText,
    errorMessage: optionalText,
  }),
});

function withPhase<T extends { status?: object | null | undefined }>(object: T, phase: string): T {
  return { ...object, status: { ...object.status, phase } };
}

// What each event does to an object, written against the fields (not the model's facts).
type Effects<T, E extends string> = Record<E, (object: T) => T>;

function withStatus<T extends { status?: object | null | undefined }>(object: T, fields: object): T {
  return { ...object, status: { ...object.status, ...fields } };
}
const clearError = <T extends { status?: object | null | undefined }>(object: T) =>
  withStatus(object, { errorReason: null, errorMessage: null });
const requestDeletion = <T extends { metadata?: object | null | undefined }>(object: T): T => ({
  ...object,
  metadata: { ...object.metadata, deletionTimestamp: '2020-01-01T00:00:00Z' },
});

const machineEffects: Effects<MachinePhaseSource, MachineEvent> = {
  bootstrapReady: (m) => withStatus(m, { bootstrapReady: true }),
  infrastructureReady: (m) => withStatus(m, { infrastructureReady: true }),
  nodeRefSet: (m) =>
    m.metadata?.deletionTimestamp != null ? m : withStatus(m, { nodeRef: { kind: 'Node', name: 'n1' } }),
  errorSet: (m) => withStatus(m, { errorReason: 'CreateError', errorMessage: 'instance failed' }),
  errorCleared: clearError,
  deletionRequested: requestDeletion,
};

const clusterEffects: Effects<ClusterPhaseSource, ClusterEvent> = {
  infrastructureRefSet: (c) => ({
    ...c,
    spec: { ...c.spec, infrastructureRef: { kind: 'AWSCluster', name: 'c1' } },
  }),
  infrastructureRefRemoved: (c) => ({ ...c, spec: { ...c.spec, infrastructureRef: null } }),
  infrastructureReady: (c) =>
    c.spec?.infrastructureRef != null ? withStatus(c, { infrastructureReady: true }) : c,
  errorSet: (c) => withStatus(c, { errorReason: 'CreateError' }),
  errorCleared: clearError,
  deletionRequested: requestDeletion,
};

const applyEvents =
  <T, E extends string>(effects: Effects<T, E>) =>
  (object: T, events: readonly E[]): T =>
    events.reduce((o, event) => effects[event](o), object);
const applyMachineEvents = applyEvents(machineEffects);
const applyClusterEvents = applyEvents(clusterEffects);

/** What both kinds must satisfy, whatever their rules: one table row per kind. */
interface PhaseKind<T extends { status?: { phase?: string | null } | null }, E extends string> {
  readonly name: string;
  readonly any: fc.Arbitrary<T>;
  readonly phase: (object: T) => string;
  readonly check: (from: string | null | undefined, to: string, options?: { history: 'any' }) => unknown;
  readonly events: readonly { readonly name: E }[];
  readonly created: T;
  readonly apply: (object: T, events: readonly E[]) => T;
}

function sharedPhaseProperties<
  T extends { status?: { phase?: string | null } | null; metadata?: { deletionTimestamp?: unknown } | null },
  E extends string,
>(kind: PhaseKind<T, E>) {
  it('applying the rules twice gives the same phase as once', () => {
    fc.assert(
      fc.property(kind.any, (o) => {
        const once = kind.phase(o);
        expect(kind.phase(withPhase(o, once))).toBe(once);
      }),
    );
  });

  it('a deletion timestamp always yields deleting', () => {
    fc.assert(
      fc.property(kind.any, (o) => {
        if (deletionRequested(o.metadata?.deletionTimestamp)) expect(kind.phase(o)).toBe('deleting');
      }),
    );
  });

  it('every computed step passes the transition check when the old phase may be anything', () => {
    fc.assert(
      fc.property(kind.any, (o) => {
        expect(kind.check(o.status?.phase, kind.phase(o), { history: 'any' })).toMatchObject({ ok: true });
      }),
    );
  });

  it(`every step of a ${kind.name} driven by events from creation passes the strict check`, () => {
    const batch = fc.uniqueArray(fc.constantFrom(...kind.events.map((e) => e.name)), { maxLength: 3 });
    fc.assert(
      fc.property(fc.array(batch, { minLength: 1, maxLength: 8 }), (batches) => {
        let object = kind.created;
        for (const events of batches) {
          object = kind.apply(object, events);
          const before = object.status?.phase;
          const after = kind.phase(object);
          expect(kind.check(before, after), `${before} → ${after} after ${events.join(', ')}`).toMatchObject({
            ok: true,
          });
          object = withPhase(object, after);
        }
      }),
    );
  });
}

describe('Machine phase properties', () => {
  sharedPhaseProperties<MachinePhaseSource, MachineEvent>({
    name: 'Machine',
    any: anyMachine,
    phase: machinePhase,
    check: checkMachineTransition,
    events: machineEvents,
    created: { metadata: {}, spec: { bootstrap: {} }, status: {} },
    apply: applyMachineEvents,
  });

  it('never writes an empty phase, nor deleted unless it was stored (no rule holds: kept)', () => {
    fc.assert(
      fc.property(anyMachine, (m) => {
        const phase = machinePhase(m);
        expect(phase).not.toBe('');
        if (m.status?.phase !== 'deleted') expect(phase).not.toBe('deleted');
      }),
    );
    // The case fast-check found now and then: a stored `deleted` that no rule touches.
    const kept = { metadata: {}, spec: {}, status: { phase: 'deleted', bootstrapReady: false } };
    expect(machinePhase(kept)).toBe('deleted');
  });

  it('agrees with the precedence read from the top: deleting, failed, running, provisioned, provisioning, kept', () => {
    fc.assert(
      fc.property(anyMachine, (m) => {
        const s = m.status ?? {};
        const previous = s.phase ?? '';
        const deleting = deletionRequested(m.metadata?.deletionTimestamp);
        const bootstrap = s.bootstrapReady === true || (!deleting && m.spec?.bootstrap?.data != null);
        const expected = deleting
          ? 'deleting'
          : s.errorReason != null || s.errorMessage != null
            ? 'failed'
            : s.infrastructureReady && s.nodeRef != null
              ? 'running'
              : s.infrastructureReady
                ? 'provisioned'
                : bootstrap
                  ? 'provisioning'
                  : previous === ''
                    ? 'pending'
                    : previous;
        expect(machinePhase(m)).toBe(expected);
      }),
    );
  });
});

describe('Cluster phase properties', () => {
  sharedPhaseProperties<ClusterPhaseSource, ClusterEvent>({
    name: 'Cluster',
    any: anyCluster,
    phase: clusterPhase,
    check: checkClusterTransition,
    events: clusterEvents,
    created: { metadata: {}, spec: {}, status: {} },
    apply: applyClusterEvents,
  });
});
