export { type Clock, systemClock } from './clock.js';
export {
  type AcquireDecision,
  decideAcquire,
  maxLeaseTransitions,
  nextLeaseTransitions,
} from './decision.js';
export {
  isNodeWithoutLease,
  LeaseApiError,
  type LeaseApiErrorCode,
  type LeaseApiErrorDetails,
  LeaseConfigError,
  type LeaseError,
  type LeaseLossReason,
  LeaseLostError,
} from './errors.js';
export {
  defaultMaxClockSkewMs,
  type ExpiryJudgement,
  judgeExpiry,
  type LeaseState,
  ObservationLog,
  type RemoteRenewTimePolicy,
} from './expiry.js';
export { HeldLease, type RenewOutcome } from './held-lease.js';
export { checkHolderIdentity, isReservedHolder, reservedHolderPrefix } from './holder-identity.js';
export { isUnderMaintenanceState, type LeaseInspection } from './inspection.js';
export { LeaseManager, type LeaseManagerOptions, type RenewCycleReport } from './lease-manager.js';
export { isForeign, type LeaseRecord, readLeaseRecord } from './lease-record.js';
export type { LeaseChange } from './lease-watch.js';
export {
  defaultLeaseNamespace,
  kubeletHeartbeatNamespace,
  type LeaseLocation,
  medik8sLeaseNamespace,
  medik8sLeases,
  nodeNamedLeases,
} from './location.js';
export { formatMicroTime, parseMicroTime, toMicroTime } from './micro-time.js';
export {
  type AcquireResult,
  NodeLeaseClient,
  type NodeLeaseClientOptions,
  type ReleaseResult,
  type RenewResult,
} from './node-lease-client.js';
export { NodeLeaseObserver, type NodeLeaseObserverOptions } from './node-lease-observer.js';
export { withoutCredentials } from './redact.js';
export {
  defaultLeaseTiming,
  type LeaseTiming,
  leaseTimingProblems,
  maxLeaseDurationSeconds,
  minRetryPeriodMs,
  resolveLeaseTiming,
  retryJitterFactor,
} from './timing.js';
