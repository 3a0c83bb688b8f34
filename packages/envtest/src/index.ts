// @capi-kit/envtest: a real Kubernetes control plane for tests. The certificate helpers it
// uses are at `@capi-kit/envtest/pki`, for tests that need a CA of their own.
export {
  type ControlPlaneBinaries,
  findControlPlaneBinaries,
  setupEnvtestStore,
} from './binaries.js';
export type { BackendKind, ControlPlaneClient, ControlPlaneConnection } from './connection.js';
export { connect, namespaceName } from './connection.js';
export {
  type BackendChoice,
  type ControlPlane,
  chooseBackend,
  NoControlPlaneError,
  type StartControlPlaneOptions,
  startControlPlane,
} from './control-plane.js';
export { type CrdConversion, convertV1beta1Crd, isCrd, isV1beta1Crd, makeStructural } from './crd-v1beta1.js';
export { type CrdInput, type InstalledCrd, installCRDs, loadCrds } from './crds.js';
export { DeadlineError } from './deadline.js';
export { probeDocker } from './docker.js';
export { EnvtestError, type EnvtestErrorCode, envtestErrorCodes } from './errors.js';
export { type GrantOptions, type GrantSubject, waitForAccess } from './rbac.js';
export { keepAliveAgent, restRequest } from './rest.js';
export {
  type ConvertObject,
  conversionReviewHandler,
  startWebhookServer,
  type WebhookHandler,
  type WebhookServer,
} from './webhook-server.js';
