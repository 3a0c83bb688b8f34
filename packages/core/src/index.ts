/**
 * `@capi-kit/core`: decode any Cluster API object and report its errors.
 *
 * - `decode(value, { strict? })` → `Either<DecodeError, CapiObject>`: dispatches on
 *   `apiVersion` + `kind`; the result is the input itself, narrowed to the union of every kind.
 * - `decodeWith(codec, value, { strict? })` → `Either<SchemaError[], A>` for one codec.
 * - `strict(codec)`: the codec's twin that also reports unknown fields.
 * - `SchemaError`: `{ code, path, expected, received, message }`, every error at once.
 * - `isKind(obj, apiVersion, kind)` narrows a decoded object.
 *
 * Per-version types, codecs (`MachineCodec`, ...), guards and constants live in
 * `@capi-kit/core/v1alpha1`, `/v1alpha2`, `/v1alpha3`, `/v1alpha4`, `/v1beta1` and
 * `/v1beta2`, also re-exported here as namespaces of those names. Manifests: `@capi-kit/core/manifest`.
 */
export * from './api/meta/index.js';
export { type CompiledGuard, compiledGuard } from './api/schema/compile.js';
export { Issue } from './api/schema/issues.js';
export { strict } from './api/schema/strict.js';
export * from './decode/index.js';
export * from './objects/index.js';
export * as v1alpha1 from './v1alpha1/index.js';
export * as v1alpha2 from './v1alpha2/index.js';
export * as v1alpha3 from './v1alpha3/index.js';
export * as v1alpha4 from './v1alpha4/index.js';
export * as v1beta1 from './v1beta1/index.js';
export * as v1beta2 from './v1beta2/index.js';
