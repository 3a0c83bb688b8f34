/**
 * `@capi-kit/core`: decode any Cluster API object and report its errors.
 *
 * - `decode(value, { strict? })` → `Either<DecodeError, CapiObject>`: dispatches on
 *   `apiVersion` + `kind`; the result is the input itself, narrowed to the union of every kind.
 * - `decodeWith(codec, value, { strict? })` → `Either<SchemaError[], A>` for one codec.
 * - `strict(codec)`: the codec's twin that also reports unknown fields.
 * - `SchemaError`: `{ path, expected, received, issue, message }`, every error at once.
 * - `isKind(obj, apiVersion, kind)` narrows a decoded object.
 *
 * Per-version types, codecs (`MachineCodec`, ...), guards and constants live in
 * `@capi-kit/core/v1alpha1` and `@capi-kit/core/v1alpha2`, also re-exported here as the
 * namespaces `v1alpha1` and `v1alpha2`. Manifests: `@capi-kit/core/manifest`.
 */
export * from './api/meta/index.js';
export { type CompiledGuard, compiledGuard } from './api/schema/compile.js';
export { Issue } from './api/schema/issues.js';
export { strict } from './api/schema/strict.js';
export * from './decode/index.js';
export * from './objects/index.js';
export * as v1alpha1 from './v1alpha1/index.js';
export * as v1alpha2 from './v1alpha2/index.js';
