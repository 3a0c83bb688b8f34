import { formatJsonPath, type JsonPath } from '../objects/json-path.js';

/**
 * Names, labels and annotations are what people read in terminals and reports. A control
 * character there (NUL, ESC, …) either is refused later by the API server or, worse, forges
 * output; a lone UTF-16 surrogate (from a JSON `\ud800` escape) cannot be written as UTF-8 and
 * would come out as U+FFFD. Both are refused when a manifest is read, with the path.
 */

/** C0 controls, DEL and C1 controls; tab, LF and CR are allowed in annotation values only. */
function isControl(code: number, allowLineBreaks: boolean): boolean {
  if (allowLineBreaks && (code === 0x09 || code === 0x0a || code === 0x0d)) return false;
  return code <= 0x1f || (code >= 0x7f && code <= 0x9f);
}

/** The first control character or unpaired surrogate in `text`, as a message. */
function problemIn(text: string, allowLineBreaks = false): string | undefined {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (isControl(code, allowLineBreaks)) {
      return `contains the control character U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
    }
    if (code >= 0xd800 && code <= 0xdfff) {
      const next = text.charCodeAt(i + 1);
      if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) i++;
      else return 'contains an unpaired UTF-16 surrogate (not valid UTF-8 text)';
    }
  }
  return undefined;
}

export interface TextProblem {
  /** Where, for people: `items[0].metadata.labels["a/b"]`. */
  readonly path: string;
  /** The same place as keys and indexes, to find the field in the parsed document. */
  readonly segments: JsonPath;
  readonly message: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const problemAt = (segments: JsonPath, message: string): TextProblem => ({
  path: formatJsonPath(segments),
  segments,
  message,
});

function checkMetadata(metadata: Record<string, unknown>, at: JsonPath): TextProblem | undefined {
  for (const key of ['name', 'generateName', 'namespace'] as const) {
    const value = metadata[key];
    if (typeof value !== 'string') continue;
    const message = problemIn(value);
    if (message !== undefined) return problemAt([...at, key], message);
  }
  for (const map of ['labels', 'annotations'] as const) {
    const entries = metadata[map];
    if (!isRecord(entries)) continue;
    for (const [key, value] of Object.entries(entries)) {
      const keyProblem = problemIn(key);
      if (keyProblem !== undefined) return problemAt([...at, map, key], `key ${keyProblem}`);
      if (typeof value !== 'string') continue;
      const valueProblem = problemIn(value, map === 'annotations');
      if (valueProblem !== undefined) return problemAt([...at, map, key], valueProblem);
    }
  }
  return undefined;
}

/**
 * The first control character or unpaired surrogate in a document's names, labels or
 * annotations: its own `metadata`, a template's, and those of a List's items, at any depth.
 */
export function metadataTextProblem(value: unknown, at: JsonPath = []): TextProblem | undefined {
  if (!isRecord(value)) return undefined;
  if (isRecord(value.metadata)) {
    const found = checkMetadata(value.metadata, [...at, 'metadata']);
    if (found !== undefined) return found;
  }
  if (isRecord(value.spec) && isRecord(value.spec.template)) {
    const found = metadataTextProblem(value.spec.template, [...at, 'spec', 'template']);
    if (found !== undefined) return found;
  }
  if (Array.isArray(value.items)) {
    for (const [i, item] of value.items.entries()) {
      const found = metadataTextProblem(item, [...at, 'items', i]);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}
