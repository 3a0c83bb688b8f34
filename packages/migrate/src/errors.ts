/**
 * Every way a migration step can fail, tagged `code` (the project's error convention).
 * Problems found before anything is written are collected, not thrown one at a time, so a
 * user sees the whole list at once.
 */
export type MigrateError =
  /** The API server answered with an error, or could not be reached. */
  | {
      readonly code: 'api';
      readonly message: string;
      /** The HTTP status, when the server answered. */
      readonly status?: number;
      /** `create`, `get`, `patch`, … */
      readonly verb: string;
      /** `machines.cluster.x-k8s.io`, `secrets`, … */
      readonly resource: string;
    }
  /** Preflight found problems; nothing was written. */
  | { readonly code: 'preflight'; readonly message: string; readonly problems: readonly Problem[] }
  /** A source object does not convert. */
  | { readonly code: 'conversion'; readonly message: string; readonly path?: string }
  /** `verify` found differences (also what `prune` refuses on). */
  | { readonly code: 'verification'; readonly message: string; readonly differences: readonly Problem[] }
  /** A write was stopped by the caller's fault hook (tests inject crashes with it). */
  | { readonly code: 'interrupted'; readonly message: string }
  /** The options given are not usable (`scope.namespace` not a namespace name, …); nothing was requested. */
  | { readonly code: 'invalid-options'; readonly message: string; readonly path: string };

/** One thing wrong with one object. */
export interface Problem {
  /** `Machine ns/name` (or `apiVersion` for cluster-wide problems). */
  readonly object: string;
  readonly message: string;
  /** Set when the problem is the API server's answer (RBAC, reachability). */
  readonly status?: number;
}

/** Thrown inside the steps and turned into a Left at their edge; carries its error's code. */
export class MigrateFailure extends Error {
  readonly code: MigrateError['code'];
  constructor(readonly error: MigrateError) {
    super(error.message);
    this.code = error.code;
  }
}

/** Whether the problems include an API error (exit 3 in the CLI) rather than refusals only. */
export function hasApiProblem(problems: readonly Problem[]): boolean {
  return problems.some((p) => p.status !== undefined);
}

/** Whether the API server answered 409 Conflict: a precondition or resourceVersion no longer held. */
export function isConflict(error: unknown): boolean {
  return error instanceof MigrateFailure && error.error.code === 'api' && error.error.status === 409;
}
