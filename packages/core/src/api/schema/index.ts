export { ArrayOf, arrayOf, MapOf, mapOf, Nullable, nullable } from './collections.js';
export { type CompiledGuard, compiledGuard, guardSource } from './compile.js';
export { Issue } from './issues.js';
export {
  boolean,
  enumOf,
  IntOrString,
  int32,
  int64,
  integer,
  literal,
  MicroTime,
  type OpenString,
  openString,
  RawExtension,
  replicaCount,
  type ScalarCheck,
  ScalarType,
  string,
  stringMatching,
  Time,
} from './scalars.js';
export { type HasStrictForm, strict } from './strict.js';
export { isPlainObject, type Props, type StructOf, StructType, struct } from './struct.js';
