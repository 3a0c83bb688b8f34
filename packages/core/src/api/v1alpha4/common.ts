import type * as t from 'io-ts';
import { mapOf, string, struct } from '../schema/index.js';

export interface TemplateMetadata {
  annotations?: Record<string, string>;
  labels?: Record<string, string>;
}

export const TemplateMetadataCodec: t.Type<TemplateMetadata> = struct(
  'TemplateMetadata',
  {},
  {
    annotations: mapOf(string),
    labels: mapOf(string),
  },
);
