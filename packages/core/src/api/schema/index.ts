export { type ArrayConstraints, ArrayOf, arrayOf, MapOf, mapOf, Nullable, nullable } from './collections.js';
export { type CompiledGuard, compiledGuard, guardSource } from './compile.js';
export { type GuardsFor, guardsFor } from './guards-for.js';
export { Issue } from './issues.js';
export {
  anyValue,
  boolean,
  codePointLength,
  enumOf,
  type IntegerBounds,
  IntOrString,
  int32,
  int64,
  integer,
  integerWith,
  literal,
  MicroTime,
  type OpenString,
  openString,
  RawExtension,
  replicaCount,
  type ScalarCheck,
  ScalarType,
  type StringConstraints,
  string,
  stringMatching,
  stringWith,
  Time,
} from './scalars.js';
export { type HasStrictForm, strict } from './strict.js';
export {
  isPlainObject,
  type Props,
  type StructConstraints,
  type StructOf,
  StructType,
  struct,
} from './struct.js';
