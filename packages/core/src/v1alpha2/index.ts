/**
 * `@capi-kit/core/v1alpha2`: types, codecs, guards and constants of `cluster.x-k8s.io/v1alpha2`.
 *
 * Naming, one module per kind as in Cluster API's Go packages:
 * - a type per Go struct with its JSON field names: `Machine`, `MachineSpec`, `MachineStatus`, `MachineList`, ...;
 * - its io-ts codec with a `Codec` suffix: `MachineCodec`, `MachineSpecCodec`, ... (lenient: unknown
 *   fields pass through; `strict(MachineCodec)` from `@capi-kit/core` also rejects them);
 * - `codecs`, the codec of each kind by kind name, and `KnownObject`, the union of every kind;
 * - type guards `isMachine`, `isMachineList`, ...;
 * - constants: `APIVersion`, `GroupName`, `Version`, `Kinds`, `Labels`, `Annotations`, `Finalizers`,
 *   error reasons and enum values.
 * The embedded Kubernetes types (ObjectMeta, ObjectReference, LabelSelector, ...) are re-exported.
 */
export * from '../api/meta/index.js';
export * from '../api/v1alpha2/cluster.js';
export * from '../api/v1alpha2/constants.js';
export * from '../api/v1alpha2/guards.js';
export * from '../api/v1alpha2/machine.js';
export * from '../api/v1alpha2/machinedeployment.js';
export * from '../api/v1alpha2/machineset.js';
