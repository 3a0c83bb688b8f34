/**
 * `@capi-kit/core/v1alpha1`: types, codecs, guards and constants of `cluster.k8s.io/v1alpha1`.
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
export * from '../api/v1alpha1/cluster.js';
export * from '../api/v1alpha1/common.js';
export * from '../api/v1alpha1/constants.js';
export * from '../api/v1alpha1/guards.js';
export * from '../api/v1alpha1/machine.js';
export * from '../api/v1alpha1/machineclass.js';
export * from '../api/v1alpha1/machinedeployment.js';
export * from '../api/v1alpha1/machineset.js';
