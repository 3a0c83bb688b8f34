// envtest's errors are thrown (its API is async, and a test has nothing better to do with a
// failure than fail), so they are Error subclasses; like every capi-kit error they carry a
// `code` to branch on, a `message`, and a `path` where one field is to blame.

/** What went wrong, as a string a caller can branch on. */
export const envtestErrorCodes = [
  /** No backend can run (`NoControlPlaneError`, with each backend's reason). */
  'no-control-plane',
  /** Work with no timeout of its own (a k3s image pull) did not finish in time (`DeadlineError`). */
  'deadline-exceeded',
  /** A backend was found but did not start, or kube-apiserver did not restart. */
  'start-failed',
  /** A process or endpoint did not become ready in time, or its process died while waiting. */
  'not-ready',
  /** A request the server did not answer in time. */
  'timeout',
  /** The API server answered a request with a non-2xx status. */
  'api-error',
  /** A `CAPI_KIT_ENVTEST_*` variable or an option with a value envtest cannot use. */
  'invalid-setting',
  /** What a backend cannot do (`restartApiServer()` off the local backend, `kubeConfigFor()` without its client CA). */
  'not-supported',
  /** Used before it is ready: no global setup, `namespace` read before `beforeAll`, a stopped control plane. */
  'not-set-up',
  /** A kubeconfig without a current cluster or without a certificate authority. */
  'invalid-kubeconfig',
  /** Input to `loadCrds` / `installCRDs` / `convertV1beta1Crd` that is not a usable CRD. */
  'invalid-crd',
  /** A webhook request that is not a ConversionReview. */
  'invalid-request',
] as const;
export type EnvtestErrorCode = (typeof envtestErrorCodes)[number];

/** Every error envtest throws: `code`, `message`, and `path` (a JSON path) where one applies. */
export class EnvtestError<C extends EnvtestErrorCode = EnvtestErrorCode> extends Error {
  override name = 'EnvtestError';
  // Declared, not initialised: an error without a path has no `path` property at all.
  declare readonly path?: string;

  constructor(
    readonly code: C,
    message: string,
    options: { readonly path?: string; readonly cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    if (options.path !== undefined) (this as { path?: string }).path = options.path;
  }
}
