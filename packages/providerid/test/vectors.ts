import { readFileSync } from 'node:fs';

// The shared providerID vectors (data fields only; sources and prose notes left out).
export interface ParseVector {
  id: string;
  cloud: string;
  input: string;
  valid: boolean;
  expected?: Record<string, string | boolean>;
  lenient?: boolean;
}
export interface MatchVector {
  id: string;
  cloud: string;
  nodeProviderID: string;
  machineProviderID: string;
  expected: {
    exact: boolean;
    capiLegacy: boolean;
    autoscalerClusterAPI: boolean;
    sameInstance: boolean | null;
  };
}
export interface NormalizeVector {
  id: string;
  cloud: string;
  op: string;
  input: string;
  expected?: string;
  error?: boolean;
}
export interface FormatVector {
  id: string;
  cloud: string;
  op: string;
  fields: Record<string, unknown>;
  expected?: string;
  error?: boolean;
}
export interface Vectors {
  counts: { parse: number; match: number; normalize: number; format: number };
  parse: ParseVector[];
  match: MatchVector[];
  normalize: NormalizeVector[];
  format: FormatVector[];
}

export const vectors: Vectors = JSON.parse(
  readFileSync(new URL('./fixtures/providerid-vectors.json', import.meta.url), 'utf8'),
);
