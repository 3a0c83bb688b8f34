/**
 * `@capi-kit/core/v1alpha4`: types, codecs, guards and constants of `cluster.x-k8s.io/v1alpha4`.
 *
 * Same naming as `@capi-kit/core/v1alpha2`: a type per Go struct with its JSON field names,
 * its codec with a `Codec` suffix (lenient; `strict(codec)` also rejects unknown fields),
 * `codecs` and `KnownObject`, guards `isMachine`, ..., and the constants (`APIVersion`,
 * `Labels`, `Annotations`, `Finalizers`, phases, condition types, enums). The embedded
 * Kubernetes types are re-exported.
 */
export * from '../api/meta/index.js';
export * from '../api/v1alpha4/cluster.js';
export * from '../api/v1alpha4/common.js';
export * from '../api/v1alpha4/constants.js';
export * from '../api/v1alpha4/guards.js';
export * from '../api/v1alpha4/machine.js';
export * from '../api/v1alpha4/machinedeployment.js';
export * from '../api/v1alpha4/machinehealthcheck.js';
export * from '../api/v1alpha4/machineset.js';
