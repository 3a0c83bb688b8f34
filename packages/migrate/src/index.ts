/**
 * `@capi-kit/migrate`: moves a live management cluster from `cluster.k8s.io/v1alpha1` to
 * `cluster.x-k8s.io/v1alpha2`, which upstream never shipped a tool for. Four steps, each
 * a function here and a `capi-kit migrate` subcommand: plan (read-only), apply
 * (idempotent and resumable), verify, prune (only after verify passes).
 */
import { type ConversionPlugin, type GeneratedKind, V1ALPHA2 } from '@capi-kit/conversion';
import type { KubeConfig } from '@kubernetes/client-node';
import * as E from 'fp-ts/lib/Either.js';
import { type ApplySummary, execute, preflight, servedProblems, targetProblems } from './apply.js';
import { ClusterApi, type WriteHook } from './cluster-api.js';
import { type MigrateError, MigrateFailure } from './errors.js';
import { readInventory, type Scope, scopeProblem } from './inventory.js';
import { isMigrationTarget, type MigrationPlan, type MigrationTarget, planMigration } from './plan.js';
import { type PruneSummary, prune } from './prune.js';
import { type VerifyResult, verify } from './verify.js';

export type { ApplySummary } from './apply.js';
export type { Write, WriteHook } from './cluster-api.js';
export { hasApiProblem, type MigrateError, type Problem } from './errors.js';
export {
  CLUSTER_SECRET_PURPOSES,
  type ClusterIndex,
  clusterIndex,
  type Inventory,
  namedLikeCluster,
  owningCluster,
  type Scope,
  SOURCE_KINDS,
} from './inventory.js';
export type { ObjectKey } from './object.js';
export {
  isMigrationTarget,
  type MigrationPlan,
  type MigrationTarget,
  type OwnerLink,
  type PlannedObject,
  planMigration,
  type SecretToReown,
  SOURCE_UID_ANNOTATION,
} from './plan.js';
export type { PruneSummary } from './prune.js';
export { PRUNED_RECORD, SOURCE_PRUNED_ANNOTATION } from './pruned.js';
export type { VerifyResult } from './verify.js';

export interface MigrationOptions {
  /** The management cluster. */
  readonly kubeConfig: KubeConfig;
  readonly scope: Scope;
  /** Provider plug-ins for what v1alpha1 kept in providerSpec (AWS, vSphere, your own). */
  readonly plugins: readonly ConversionPlugin[];
  /** The version to create (default cluster.x-k8s.io/v1alpha2, what the v0.2 controllers read). */
  readonly to?: MigrationTarget;
  /** Called after every write; throwing stops the run there (tests inject crashes with it). */
  readonly afterWrite?: WriteHook;
  /** Objects per list request (default 500); larger kinds are read page by page. */
  readonly pageSize?: number;
}

/** The kinds the plug-ins can generate, for verify to list even when the plan has none of them. */
function generatedKinds(plugins: readonly ConversionPlugin[]): GeneratedKind[] {
  return plugins.flatMap((plugin) => plugin.generates ?? []);
}

/**
 * Why the options cannot be used, checked before any request: they go into request paths
 * and parameters, and a caller of the library (unlike the CLI's) has checked nothing.
 */
function optionsProblem(options: MigrationOptions): MigrateError | undefined {
  const scope = scopeProblem(options.scope);
  if (scope !== undefined) return { code: 'invalid-options', ...scope };
  if (options.to !== undefined && !isMigrationTarget(options.to)) {
    return {
      code: 'invalid-options',
      path: 'to',
      message: `to ${JSON.stringify(options.to) ?? String(options.to)} is not a cluster.x-k8s.io version from v1alpha2 to v1beta2`,
    };
  }
  const size = options.pageSize;
  if (size !== undefined && !(Number.isSafeInteger(size) && size > 0)) {
    return {
      code: 'invalid-options',
      path: 'pageSize',
      message: `pageSize must be a positive whole number (got ${String(size)})`,
    };
  }
  return undefined;
}

/** Runs a step once its options are checked, turning the failures it throws into a Left. */
async function step<T>(
  options: MigrationOptions,
  run: () => Promise<E.Either<MigrateError, T>>,
): Promise<E.Either<MigrateError, T>> {
  const problem = optionsProblem(options);
  if (problem !== undefined) return E.left(problem);
  try {
    return await run();
  } catch (error) {
    if (error instanceof MigrateFailure) return E.left(error.error);
    throw error;
  }
}

async function readPlan(
  api: ClusterApi,
  options: MigrationOptions,
): Promise<E.Either<MigrateError, MigrationPlan>> {
  const to = options.to ?? V1ALPHA2;
  const served = await servedProblems(api, to);
  if (served.length > 0) {
    return E.left({
      code: 'preflight',
      message: 'the API groups a migration needs are not served',
      problems: served,
    });
  }
  return planMigration(await readInventory(api, options.scope), options.plugins, to);
}

/**
 * What `apply` would create, rebuild, restore and re-own. Reads only. Its warnings also name
 * every object already there under a planned name that apply would refuse to act on (not
 * created by this migration, or carrying its annotation over other content).
 */
export function planClusterMigration(
  options: MigrationOptions,
): Promise<E.Either<MigrateError, MigrationPlan>> {
  return step(options, async () => {
    const api = new ClusterApi(options.kubeConfig, undefined, options.pageSize);
    const plan = await readPlan(api, options);
    if (E.isLeft(plan)) return plan;
    const problems = await targetProblems(api, plan.right);
    if (problems.length === 0) return plan;
    const warnings = problems.map((p) => `${p.object}: ${p.message}`);
    return E.right({ ...plan.right, warnings: [...plan.right.warnings, ...warnings] });
  });
}

/**
 * Preflight (nothing is written unless every check passes), then creates the v1alpha2
 * objects. Safe to run again, or after a crash at any point: it finishes what is missing
 * and writes nothing that is already right. With `dryRun`, every write is a server-side
 * dry run and nothing persists.
 */
export function applyClusterMigration(
  options: MigrationOptions & { readonly dryRun?: boolean },
): Promise<E.Either<MigrateError, ApplySummary & { readonly plan: MigrationPlan }>> {
  return step(options, async () => {
    const api = new ClusterApi(options.kubeConfig, options.afterWrite, options.pageSize);
    const plan = await readPlan(api, options);
    if (E.isLeft(plan)) return plan;
    const problems = await preflight(api, plan.right);
    if (problems.length > 0) {
      return E.left({
        code: 'preflight',
        message: `preflight found ${problems.length} problem(s); nothing was written`,
        problems,
      });
    }
    return E.right({ ...(await execute(api, plan.right, options.dryRun === true)), plan: plan.right });
  });
}

/** Compares the cluster with the plan: every difference, or none when the migration is complete. */
export function verifyClusterMigration(
  options: MigrationOptions,
): Promise<E.Either<MigrateError, VerifyResult>> {
  return step(options, async () => {
    const api = new ClusterApi(options.kubeConfig, undefined, options.pageSize);
    const plan = await readPlan(api, options);
    return E.isLeft(plan)
      ? plan
      : E.right(await verify(api, plan.right, options.scope, generatedKinds(options.plugins)));
  });
}

/**
 * Runs `verify`, and only when it finds no difference clears the finalizers of the
 * v1alpha1 objects and deletes them. The v0.1 controllers must be stopped first.
 */
export function pruneClusterMigration(
  options: MigrationOptions,
): Promise<E.Either<MigrateError, PruneSummary>> {
  return step(options, async () => {
    const api = new ClusterApi(options.kubeConfig, options.afterWrite, options.pageSize);
    const plan = await readPlan(api, options);
    if (E.isLeft(plan)) return plan;
    const result = await verify(api, plan.right, options.scope, generatedKinds(options.plugins));
    if (result.differences.length > 0) {
      return E.left({
        code: 'verification',
        message: `verify found ${result.differences.length} difference(s); nothing was pruned`,
        differences: result.differences,
      });
    }
    return E.right(await prune(api, plan.right.sources, plan.right.objects));
  });
}
