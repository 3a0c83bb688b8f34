import type { MigrateError, MigrationOptions, MigrationPlan, Problem, Scope } from '@capi-kit/migrate';
import { oneOf, parseCommandLine } from '../args.js';
import { loadKubeConfigOrReport } from '../cluster-client.js';
import type { CommandBody } from '../command.js';
import { CliError, ExitCode, UsageError } from '../exit-codes.js';
import type { CliIO } from '../io.js';
import { checkNamespaceFlag, commandNamespace } from '../names.js';
import { jsonText, printable } from '../text.js';
import { yamlText } from '../yaml-text.js';

const usage = `Usage: capi-kit migrate plan|apply|verify|prune [-n NS | -A] [--to APIVERSION] [--dry-run] [--confirm] [-o text|json|yaml]

Moves a live management cluster from cluster.k8s.io/v1alpha1 (Cluster API v0.1) to
cluster.x-k8s.io/v1alpha2 (v0.2). The runbook is docs/migration.md.

  plan     read-only: the objects apply would create, in order, the ownerReferences it
           rebuilds, the status it restores, the Secrets it re-owns, and every warning
  apply    preflight (served APIs and CRDs, conversion, a server-side dry run of every
           create, RBAC), then create; safe to run again or after a crash. --dry-run:
           the same with server-side dry runs, nothing persists
  verify   every v1alpha1 object has its v1alpha2 counterpart; ownerReferences point at
           live UIDs; the Clusters' Secrets are owned by the new Clusters; no object apply
           created (of any kind it creates, generated ones included) has lost its
           source, unless prune deleted it (exit 1 if not)
  prune    runs verify, then clears the finalizers of the v1alpha1 objects and deletes
           them, first recording their UIDs in the ConfigMap capi-kit-migrate-pruned of
           their namespace and annotating the objects apply made from them (keep both:
           verify reads them together). Needs --confirm. STOP THE v0.1
           CONTROLLERS FIRST (scale their StatefulSets/Deployments to 0): prune warns
           when it finds one running.

Options:
  -n, --namespace NS   the namespace (default: the kubeconfig context's, else default)
  -A, --all-namespaces every namespace
  --to APIVERSION      the version to create: cluster.x-k8s.io/v1alpha2 (default; what
                       v0.2 controllers read) or a later one, e.g. cluster.x-k8s.io/v1beta2
  --kubeconfig FILE    the management cluster (default: KUBECONFIG, else ~/.kube/config)
  -o, --output FORMAT  text (default), json or yaml

Exit codes: 0 done, 1 refused (prune without --confirm) or verification failed, 2 usage,
3 API errors (RBAC 403 named with the verb and resource).
`;

const ACTIONS = ['plan', 'apply', 'verify', 'prune'] as const;
type Action = (typeof ACTIONS)[number];
type Format = 'text' | 'json' | 'yaml';

function problemLines(problems: readonly Problem[]): string {
  return problems.map((p) => `  ${printable(p.object)}: ${printable(p.message)}\n`).join('');
}

/** The exit code and stderr text of a failed step. */
function failure(error: MigrateError, io: CliIO): number {
  switch (error.code) {
    case 'preflight': {
      io.stderr(`capi-kit migrate: ${printable(error.message)}\n${problemLines(error.problems)}`);
      return error.problems.some((p) => p.status !== undefined) ? ExitCode.cluster : ExitCode.input;
    }
    case 'verification':
      io.stderr(`capi-kit migrate: ${printable(error.message)}\n${problemLines(error.differences)}`);
      return ExitCode.input;
    case 'api':
      io.stderr(`capi-kit migrate: ${printable(error.message)}\n`);
      return ExitCode.cluster;
    case 'invalid-options':
      // (the flags are checked before the library is called: this is the library's own check)
      io.stderr(`capi-kit migrate: ${printable(error.message)}\n`);
      return ExitCode.usage;
    case 'conversion':
    case 'interrupted':
      io.stderr(`capi-kit migrate: ${printable(error.message)}\n`);
      return ExitCode.input;
  }
}

function label(key: { kind: string; namespace?: string; name: string }): string {
  return printable(`${key.kind} ${key.namespace === undefined ? '' : `${key.namespace}/`}${key.name}`);
}

/** The plan as data: what `-o json|yaml` prints. */
function planData(plan: MigrationPlan) {
  return {
    objects: plan.objects.map((o) => ({
      apiVersion: o.key.apiVersion,
      kind: o.key.kind,
      ...(o.key.namespace === undefined ? {} : { namespace: o.key.namespace }),
      name: o.key.name,
      source: o.source,
      generated: o.generated,
      owners: o.owners.map((l) => ({ kind: l.owner.kind, name: l.owner.name })),
      restoreStatus: o.status === undefined ? [] : Object.keys(o.status),
      object: o.key.kind === 'Secret' ? withoutSecretValues(o.object) : o.object,
    })),
    secrets: plan.secrets.map((s) => ({
      namespace: s.key.namespace,
      name: s.key.name,
      cluster: s.cluster.name,
    })),
    warnings: plan.warnings,
  };
}

/**
 * A Secret as the plan shows it: each value replaced by its size. A plan is read by people
 * and kept in CI logs; the generated key-pair Secrets hold the clusters' private keys.
 */
function withoutSecretValues(secret: Record<string, unknown>): Record<string, unknown> {
  const shown = { ...secret };
  for (const field of ['data', 'stringData']) {
    const values = shown[field];
    if (values === null || typeof values !== 'object' || Array.isArray(values)) continue;
    shown[field] = Object.fromEntries(
      Object.entries(values).map(([key, value]) => [key, `(${String(value).length} characters, not shown)`]),
    );
  }
  return shown;
}

function planText(plan: MigrationPlan): string {
  const lines = [`create ${plan.objects.length} object(s), in this order:`];
  plan.objects.forEach((o, i) => {
    const owners = o.owners.map((l) => label(l.owner)).join(', ');
    lines.push(`  ${i + 1}. ${label(o.key)}${o.generated ? '' : ` (from ${label(o.source)})`}`);
    if (owners !== '') lines.push(`       owner: ${owners}`);
    if (o.status !== undefined)
      lines.push(`       restore status: ${Object.keys(o.status).map(printable).join(', ')}`);
  });
  lines.push(`re-own ${plan.secrets.length} Secret(s):`);
  for (const s of plan.secrets) lines.push(`  ${label(s.key)} → ${label(s.cluster)}`);
  return `${lines.join('\n')}\n`;
}

function write(io: CliIO, format: Format, data: unknown, text: () => string): void {
  if (format === 'json') io.stdout(`${jsonText(data, 2)}\n`);
  else if (format === 'yaml') io.stdout(yamlText(data));
  else io.stdout(text());
}

function warn(io: CliIO, warnings: readonly string[]): void {
  for (const w of warnings) io.stderr(`warning: ${printable(w)}\n`);
}

async function run(args: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandLine(args, {
    namespace: { type: 'string', short: 'n' },
    'all-namespaces': { type: 'boolean', short: 'A' },
    'dry-run': { type: 'boolean' },
    confirm: { type: 'boolean' },
    kubeconfig: { type: 'string' },
    output: { type: 'string', short: 'o' },
    to: { type: 'string' },
  });
  const [action, ...extra] = positionals;
  if (action === undefined) throw new UsageError(`missing action: one of ${ACTIONS.join(', ')}`);
  if (!(ACTIONS as readonly string[]).includes(action)) {
    throw new UsageError(`unknown action '${action}': one of ${ACTIONS.join(', ')}`);
  }
  if (extra.length > 0) throw new UsageError(`unexpected argument '${extra[0]}'`);
  if (values.namespace !== undefined && values['all-namespaces'])
    throw new UsageError('-n and -A exclude each other');
  if (values['dry-run'] && action !== 'apply') throw new UsageError('--dry-run goes with apply');
  if (values.confirm && action !== 'prune') throw new UsageError('--confirm goes with prune');
  if (action === 'prune' && !values.confirm) {
    // (a refusal, exit 1, as the CLI contract has it: the command line itself is well formed)
    throw new CliError(
      'refused',
      'prune deletes the v1alpha1 objects: stop the v0.1 controllers, run verify, then run prune --confirm',
    );
  }
  const format = oneOf('-o', values.output, ['text', 'json', 'yaml'] as const, 'text');
  const migrate = await import('@capi-kit/migrate');
  const to = values.to ?? 'cluster.x-k8s.io/v1alpha2';
  if (!migrate.isMigrationTarget(to)) {
    throw new UsageError(`--to must be a cluster.x-k8s.io version from v1alpha2 to v1beta2 (got '${to}')`);
  }

  checkNamespaceFlag(values.namespace);
  const kubeConfig = await loadKubeConfigOrReport(io, 'migrate', values.kubeconfig);
  if (typeof kubeConfig === 'number') return kubeConfig;
  const scope: Scope = values['all-namespaces']
    ? { allNamespaces: true }
    : {
        namespace: commandNamespace(
          values.namespace,
          kubeConfig.getContextObject(kubeConfig.getCurrentContext())?.namespace,
        ),
      };
  const [{ awsConversionPlugin }, { vsphereConversionPlugin }] = await Promise.all([
    import('@capi-kit/providers-aws'),
    import('@capi-kit/providers-vsphere'),
  ]);
  const options: MigrationOptions = {
    kubeConfig,
    scope,
    plugins: [awsConversionPlugin, vsphereConversionPlugin],
  };
  return steps[action as Action](migrate, options, format, io, values['dry-run'] === true);
}

type Library = typeof import('@capi-kit/migrate');
type Step = (
  lib: Library,
  options: MigrationOptions,
  format: Format,
  io: CliIO,
  dryRun: boolean,
) => Promise<number>;

/** One row per action: the library call and how its result is printed. */
const steps: Record<Action, Step> = {
  plan: async (lib, options, format, io) => {
    const plan = await lib.planClusterMigration(options);
    if (plan._tag === 'Left') return failure(plan.left, io);
    write(io, format, planData(plan.right), () => planText(plan.right));
    warn(io, plan.right.warnings);
    return ExitCode.ok;
  },
  apply: async (lib, options, format, io, dryRun) => {
    const result = await lib.applyClusterMigration({ ...options, dryRun });
    if (result._tag === 'Left') return failure(result.left, io);
    const { plan: _plan, ...summary } = result.right;
    write(io, format, summary, () =>
      [
        `${dryRun ? 'dry run: would create' : 'created'} ${summary.created.length}`,
        `already present ${summary.alreadyPresent.length}`,
        `ownerReferences rebuilt ${summary.reowned.length}`,
        `restored status ${summary.restoredStatus.length}`,
        `re-owned Secrets ${summary.reownedSecrets.length}\n`,
      ].join(', '),
    );
    warn(io, summary.warnings);
    return ExitCode.ok;
  },
  verify: async (lib, options, format, io) => {
    const result = await lib.verifyClusterMigration(options);
    if (result._tag === 'Left') return failure(result.left, io);
    const { checked, differences } = result.right;
    if (differences.length > 0) {
      return failure(
        {
          code: 'verification',
          message: `${differences.length} difference(s) in ${checked} object(s)`,
          differences,
        },
        io,
      );
    }
    write(io, format, result.right, () => `verified ${checked} object(s): no differences\n`);
    return ExitCode.ok;
  },
  prune: async (lib, options, format, io) => {
    const result = await lib.pruneClusterMigration(options);
    if (result._tag === 'Left') return failure(result.left, io);
    warn(io, result.right.warnings);
    write(
      io,
      format,
      result.right,
      () =>
        `pruned ${result.right.deleted.length} v1alpha1 object(s) (finalizers cleared on ${result.right.finalizersCleared.length})\n`,
    );
    return ExitCode.ok;
  },
};

export const migrateCommand: CommandBody = { usage, run };
