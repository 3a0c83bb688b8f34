/**
 * `@capi-kit/core/v1beta1`: types, codecs, guards and constants of `cluster.x-k8s.io/v1beta1`.
 *
 * Same naming as `@capi-kit/core/v1alpha2`: a type per Go struct with its JSON field names,
 * its codec with a `Codec` suffix (lenient; `strict(codec)` also rejects unknown fields),
 * `codecs` and `KnownObject`, guards `isMachine`, ..., and the constants (`APIVersion`,
 * `Labels`, `Annotations`, `Finalizers`, phases, condition types, enums). The embedded
 * Kubernetes types are re-exported.
 */
export * from '../api/meta/index.js';
export * from '../api/v1beta1/cluster.js';
export * from '../api/v1beta1/common.js';
export * from '../api/v1beta1/constants.js';
export * from '../api/v1beta1/guards.js';
export * from '../api/v1beta1/machine.js';
export * from '../api/v1beta1/machinedeployment.js';
export * from '../api/v1beta1/machinehealthcheck.js';
export * from '../api/v1beta1/machineset.js';
