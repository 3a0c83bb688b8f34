import { decodeWith, type SchemaError } from '@capi-kit/core';
import { documentLabel } from '@capi-kit/core/manifest';
import { isPlainObject, mistypedTypeMeta } from '@capi-kit/core/objects';
import {
  clusterPhase,
  isClusterPhase,
  isLaterClusterPaused,
  isMachinePhase,
  type LaterClusterPhaseSource,
  type LaterMachinePhaseSource,
  type LaterPhaseContext,
  type LaterVersion,
  laterClusterPhase,
  laterClusterPhases,
  laterMachinePhase,
  laterMachinePhases,
  machinePhase,
  normalizeV1alpha1Phase,
} from '@capi-kit/core/phases';
import * as v1alpha1 from '@capi-kit/core/v1alpha1';
import * as v1alpha2 from '@capi-kit/core/v1alpha2';
import * as v1alpha3 from '@capi-kit/core/v1alpha3';
import * as v1alpha4 from '@capi-kit/core/v1alpha4';
import * as v1beta1 from '@capi-kit/core/v1beta1';
import * as v1beta2 from '@capi-kit/core/v1beta2';
import { parseCommandLine } from '../args.js';
import type { CommandBody } from '../command.js';
import { ExitCode, UsageError } from '../exit-codes.js';
import { readManifestInput } from '../manifest-input.js';
import { formatTable } from '../table.js';
import { jsonText, printable } from '../text.js';

const usage = `Usage: capi-kit phase -f FILE|- [--json]

Prints the phase the Cluster API controllers would write for each Machine and Cluster of a
manifest (multi-document YAML or JSON; Lists are read item by item), with the rules of the
object's version: cluster.x-k8s.io/v1alpha2 as CAPI v0.2, v1alpha3 as v0.3, v1alpha4 as
v0.4, v1beta1 as v1.10 and v1beta2 as v1.14 (no Failed phase; Updating). Each rule that
holds overwrites the phase (deleting is last, so it beats the rest), and a stored phase
that no rule touches is kept. Inputs that live in other objects (bootstrap config,
infrastructure, Nodes) are taken as the Machine or Cluster records them. From v1alpha3, a
paused object (the cluster.x-k8s.io/paused annotation, a Cluster's spec.paused, or a Machine
whose Cluster in the same manifest is paused) is not reconciled, so its stored phase stands.

cluster.k8s.io/v1alpha1 objects have no computed phase: a v1alpha1 Machine's free-text
status.phase is normalised (Running → running, Terminating → deleting, ...), and a v1alpha1
Cluster, which has no phase, is reported as unknown; stderr says which was done.
Other kinds are ignored, with a note on stderr.

Output: one line per object: kind, namespace/name, phase. With --json, one
{"kind","name","namespace","phase"} object a line (namespace "" when the manifest has none;
phase "" means unknown).

Options:
  -f, --file FILE  the manifest to read; - reads standard input
      --json       JSON lines instead of a table

Exit codes: 0 ok, 1 a document is not valid YAML/JSON or not a valid Machine/Cluster
(nothing is printed on stdout then), 2 usage error.
`;

/** One row of output. */
interface PhaseRow {
  readonly kind: string;
  readonly name: string;
  readonly namespace: string;
  readonly phase: string;
}

/** The phase of a decoded object, and what stderr should say about how it was found. */
interface Reading {
  readonly phase: string;
  readonly note?: string;
}

/** Decodes one kind with its schema, then finds its phase. */
type PhaseReader = (
  value: unknown,
  context: LaterPhaseContext,
) => { readonly errors: SchemaError[] } | { readonly reading: Reading };

type Codec<A> = Parameters<typeof decodeWith<A>>[0];

function phaseReader<A>(
  codec: Codec<A>,
  read: (object: A, context: LaterPhaseContext) => Reading,
): PhaseReader {
  return (value, context) => {
    const decoded = decodeWith(codec, value);
    return decoded._tag === 'Left' ? { errors: decoded.left } : { reading: read(decoded.right, context) };
  };
}

/** A v1alpha2 phase as computed; a stored value outside the enum is kept, with a note. */
function readV1alpha2Phase(phase: string, known: boolean): Reading {
  return known
    ? { phase }
    : {
        phase,
        note: `status.phase "${phase}" is not a v1alpha2 phase; no rule fires, so the controller writes it back unchanged`,
      };
}

function readV1alpha2Machine(machine: v1alpha2.Machine): Reading {
  const phase = machinePhase(machine);
  return readV1alpha2Phase(phase, isMachinePhase(phase));
}

function readV1alpha2Cluster(cluster: v1alpha2.Cluster): Reading {
  const phase = clusterPhase(cluster);
  return readV1alpha2Phase(phase, isClusterPhase(phase));
}

/** A capitalised (v1alpha3+) phase as computed; a stored value outside the version's enum is kept, with a note. */
function readLaterPhase(version: LaterVersion, phase: string, known: readonly string[]): Reading {
  return known.includes(phase)
    ? { phase }
    : {
        phase,
        note: `status.phase "${phase}" is not a ${version} phase; no rule fires, so the controller writes it back unchanged`,
      };
}

/** The apiVersions with capitalised phases. */
const laterAPIVersions = [v1alpha3.APIVersion, v1alpha4.APIVersion, v1beta1.APIVersion, v1beta2.APIVersion];

function laterMachineReader<M extends LaterMachinePhaseSource>(
  version: LaterVersion,
  codec: Codec<M>,
): PhaseReader {
  return phaseReader(codec, (machine, context) =>
    readLaterPhase(version, laterMachinePhase(version, machine, context), laterMachinePhases[version]),
  );
}

function laterClusterReader<C extends LaterClusterPhaseSource>(
  version: LaterVersion,
  codec: Codec<C>,
): PhaseReader {
  return phaseReader(codec, (cluster) =>
    readLaterPhase(version, laterClusterPhase(version, cluster), laterClusterPhases),
  );
}

const laterReaders: Array<[string, PhaseReader]> = [
  [`${v1alpha3.APIVersion} Machine`, laterMachineReader('v1alpha3', v1alpha3.MachineCodec)],
  [`${v1alpha3.APIVersion} Cluster`, laterClusterReader('v1alpha3', v1alpha3.ClusterCodec)],
  [`${v1alpha4.APIVersion} Machine`, laterMachineReader('v1alpha4', v1alpha4.MachineCodec)],
  [`${v1alpha4.APIVersion} Cluster`, laterClusterReader('v1alpha4', v1alpha4.ClusterCodec)],
  [`${v1beta1.APIVersion} Machine`, laterMachineReader('v1beta1', v1beta1.MachineCodec)],
  [`${v1beta1.APIVersion} Cluster`, laterClusterReader('v1beta1', v1beta1.ClusterCodec)],
  [`${v1beta2.APIVersion} Machine`, laterMachineReader('v1beta2', v1beta2.MachineCodec)],
  [`${v1beta2.APIVersion} Cluster`, laterClusterReader('v1beta2', v1beta2.ClusterCodec)],
];

function readV1alpha1Machine(machine: v1alpha1.Machine): Reading {
  const { phase, recognised, from } = normalizeV1alpha1Phase(machine.status?.phase);
  const verdict =
    from === undefined || from.trim() === ''
      ? 'v1alpha1 Machine without status.phase: unknown'
      : recognised
        ? `v1alpha1 free-text status.phase "${from}" normalised to "${phase}"`
        : `v1alpha1 free-text status.phase "${from}" not recognised: unknown`;
  return { phase, note: verdict };
}

function readV1alpha1Cluster(): Reading {
  return { phase: '', note: 'v1alpha1 Clusters have no status.phase: unknown' };
}

/** How to find the phase of each kind this command reads, by `apiVersion kind`. */
const readers: ReadonlyMap<string, PhaseReader> = new Map<string, PhaseReader>([
  [`${v1alpha2.APIVersion} Machine`, phaseReader(v1alpha2.MachineCodec, readV1alpha2Machine)],
  [`${v1alpha2.APIVersion} Cluster`, phaseReader(v1alpha2.ClusterCodec, readV1alpha2Cluster)],
  [`${v1alpha1.APIVersion} Machine`, phaseReader(v1alpha1.MachineCodec, readV1alpha1Machine)],
  [`${v1alpha1.APIVersion} Cluster`, phaseReader(v1alpha1.ClusterCodec, readV1alpha1Cluster)],
  ...laterReaders,
]);

/** Lists whose items are read one by one: `v1 List` and the typed Machine and Cluster Lists of every version. */
const listKinds = new Set([
  'v1 List',
  ...[v1alpha1.APIVersion, v1alpha2.APIVersion, ...laterAPIVersions].flatMap((apiVersion) => [
    `${apiVersion} MachineList`,
    `${apiVersion} ClusterList`,
  ]),
]);

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

type Outcome =
  | { readonly type: 'row'; readonly row: PhaseRow; readonly note?: string }
  | { readonly type: 'ignored'; readonly note: string }
  | { readonly type: 'invalid'; readonly errors: readonly string[] };

/**
 * Reads one object. `where` names it for messages; `inherited` is the apiVersion and kind of
 * a typed List's items, whose own TypeMeta is often left out.
 */
function outcomesOf(
  value: unknown,
  where: string,
  pausedClusters: ReadonlySet<string>,
  inherited?: { apiVersion: string; kind: string },
): Outcome[] {
  if (!isPlainObject(value)) {
    return [{ type: 'invalid', errors: [`${where}: not a Kubernetes object (expected a mapping)`] }];
  }
  const mistyped = mistypedTypeMeta(value);
  if (mistyped !== undefined)
    return [{ type: 'invalid', errors: [`${where}: ${mistyped.path}: ${mistyped.message}`] }];
  const apiVersion = text(value.apiVersion) ?? inherited?.apiVersion;
  const kind = text(value.kind) ?? inherited?.kind;
  const key = `${apiVersion} ${kind}`;
  if (listKinds.has(key)) {
    if (!Array.isArray(value.items))
      return [{ type: 'invalid', errors: [`${where}: items: expected an array`] }];
    const itemType =
      kind === 'List' || apiVersion === undefined
        ? undefined
        : { apiVersion, kind: kind!.replace(/List$/, '') };
    return value.items.flatMap((item, i) =>
      outcomesOf(item, `${where} items[${i}]`, pausedClusters, itemType),
    );
  }
  const reader = readers.get(key);
  if (reader === undefined) {
    const what =
      apiVersion === undefined || kind === undefined ? 'no apiVersion and kind' : `${apiVersion} ${kind}`;
    const why =
      kind === 'Machine' || kind === 'Cluster'
        ? `phases are known for cluster.x-k8s.io v1alpha2 to v1beta2 (and ${v1alpha1.APIVersion}, normalised)`
        : 'only Machines and Clusters have a phase';
    return [{ type: 'ignored', note: `${where}: ignored ${what}: ${why}` }];
  }
  const object = { ...value, apiVersion, kind };
  const result = reader(object, { clusterPaused: pausedClusters.has(machineClusterKey(object)) });
  if ('errors' in result) {
    return [{ type: 'invalid', errors: result.errors.map((error) => `${where}: ${error.message}`) }];
  }
  const { reading } = result;
  const metadata = isPlainObject(value.metadata) ? value.metadata : {};
  const row: PhaseRow = {
    kind: kind!,
    name: text(metadata.name) ?? '',
    namespace: text(metadata.namespace) ?? '',
    phase: reading.phase,
  };
  return [
    reading.note === undefined
      ? { type: 'row', row }
      : { type: 'row', row, note: `${where}: ${reading.note}` },
  ];
}

/** `apiVersion namespace/name` of a Cluster, and of a Machine's Cluster (its spec.clusterName). */
function clusterKey(apiVersion: unknown, metadata: unknown, name: unknown): string {
  const namespace = isPlainObject(metadata) ? text(metadata.namespace) : undefined;
  return `${text(apiVersion)} ${namespace ?? ''}/${text(name)}`;
}
function machineClusterKey(object: Readonly<Record<string, unknown>>): string {
  const spec = isPlainObject(object.spec) ? object.spec : {};
  return clusterKey(object.apiVersion, object.metadata, spec.clusterName);
}

/**
 * The paused v1alpha3+ Clusters of the manifest (Lists opened): their Machines keep their
 * stored phase. A Cluster that does not decode is left to its own error.
 */
function pausedClustersOf(values: readonly unknown[]): Set<string> {
  const paused = new Set<string>();
  const visit = (value: unknown, inherited?: { apiVersion?: string; kind?: string }): void => {
    if (!isPlainObject(value)) return;
    const apiVersion = text(value.apiVersion) ?? inherited?.apiVersion;
    const kind = text(value.kind) ?? inherited?.kind;
    if (listKinds.has(`${apiVersion} ${kind}`) && Array.isArray(value.items)) {
      const itemType = kind === 'List' ? {} : { apiVersion, kind: kind?.replace(/List$/, '') };
      for (const item of value.items) visit(item, itemType);
      return;
    }
    const isLaterCluster = laterAPIVersions.includes(apiVersion ?? '') && kind === 'Cluster';
    if (isLaterCluster && isLaterClusterPaused(value as never)) {
      const metadata = isPlainObject(value.metadata) ? value.metadata : {};
      paused.add(clusterKey(apiVersion, metadata, metadata.name));
    }
  };
  for (const value of values) visit(value);
  return paused;
}

function table(rows: readonly PhaseRow[]): string {
  const cells = rows.map((row) =>
    [
      row.kind,
      row.namespace === '' ? row.name : `${row.namespace}/${row.name}`,
      row.phase === '' ? 'unknown' : row.phase,
    ].map(printable),
  );
  return formatTable(['KIND', 'NAME', 'PHASE'], cells, { gap: 2 });
}

export const phaseCommand: CommandBody = {
  usage,
  run: async (args, io) => {
    const { values, positionals } = parseCommandLine(args, {
      file: { type: 'string', short: 'f' },
      json: { type: 'boolean', default: false },
    });
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    // Nothing goes to stdout on failure, so syntax errors go to stderr too.
    const input = await readManifestInput(io, values.file, io.stderr);
    if (input === undefined) return ExitCode.input;
    const pausedClusters = pausedClustersOf(input.documents.map((doc) => doc.value));
    const outcomes = input.documents.flatMap((doc) =>
      outcomesOf(doc.value, documentLabel(doc), pausedClusters),
    );
    const errors = outcomes.flatMap((outcome) => (outcome.type === 'invalid' ? outcome.errors : []));
    if (errors.length > 0) {
      for (const line of errors) io.stderr(`${printable(line)}\n`);
      io.stderr(`${printable(input.name)}: ${errors.length} error(s); no phases printed\n`);
      return ExitCode.input;
    }
    const rows: PhaseRow[] = [];
    for (const outcome of outcomes) {
      if (outcome.type === 'invalid') continue;
      if (outcome.note !== undefined) io.stderr(`${printable(outcome.note)}\n`);
      if (outcome.type === 'row') rows.push(outcome.row);
    }
    if (values.json === true) {
      for (const { kind, name, namespace, phase } of rows) {
        io.stdout(`${jsonText({ kind, name, namespace, phase })}\n`);
      }
    } else if (rows.length > 0) {
      io.stdout(table(rows));
    }
    if (rows.length === 0) io.stderr(`${printable(input.name)}: no Machines or Clusters\n`);
    return ExitCode.ok;
  },
};
