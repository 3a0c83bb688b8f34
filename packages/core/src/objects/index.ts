/**
 * `@capi-kit/core/objects`: the plumbing every package needs around untrusted Kubernetes
 * objects, in one place: the plain-object test, the object label (`Kind ns/name`), `v1 List`
 * expansion, JSON paths as errors print them, mistyped `apiVersion`/`kind`, and each version's names and keys
 * (`capiConstants`). Free of io-ts, so cheap to import.
 */
export { apiGroup, capiConstants } from './constants.js';
export { appendJsonPath, formatJsonPath, type JsonPath } from './json-path.js';
export { expandV1List, isV1List, type V1List, v1List } from './list.js';
export { formatObjectName, type ObjectName, objectLabel, objectName, qualifiedName } from './object-name.js';
export { isPlainObject } from './plain-object.js';
export { jsonTypeName, type MistypedTypeMeta, mistypedTypeMeta, yamlTypeName } from './type-meta.js';
