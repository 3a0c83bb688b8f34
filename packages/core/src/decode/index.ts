export { type DecodeError, type DecodeOptions, decode, decodeWith, isKind } from './decode.js';
export { type CapiObject, capiRegistry, defaultRegistry, KindRegistry } from './registry.js';
export {
  contextPath,
  describeValue,
  reportErrors,
  type SchemaError,
  type SchemaErrorCode,
} from './report.js';
