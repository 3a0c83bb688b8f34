/**
 * Names, labels and annotations are what people read in terminals and reports. A control
 * character there (NUL, ESC, …) either is refused later by the API server or, worse, forges
 * output; a lone UTF-16 surrogate (from a JSON `\ud800` escape) cannot be written as UTF-8 and
 * would come out as U+FFFD. Both are refused when a manifest is read, with the path.
 */

/** C0 controls, DEL and C1 controls; tab, LF and CR are allowed in annotation values only. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
const CONTROL_OR_LINE = /[\u0000-\u001f\u007f-\u009f]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export interface TextProblem {
  readonly path: string;
  readonly message: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function segment(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

function problemIn(text: string, pattern: RegExp): string | undefined {
  const control = pattern.exec(text);
  if (control !== null) {
    const code = control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
    return `contains the control character U+${code}`;
  }
  if (LONE_SURROGATE.test(text)) return 'contains an unpaired UTF-16 surrogate (not valid UTF-8 text)';
  return undefined;
}

function checkMetadata(metadata: Record<string, unknown>, at: string): TextProblem | undefined {
  for (const key of ['name', 'generateName', 'namespace'] as const) {
    const value = metadata[key];
    if (typeof value !== 'string') continue;
    const message = problemIn(value, CONTROL_OR_LINE);
    if (message !== undefined) return { path: `${at}.${key}`, message };
  }
  for (const map of ['labels', 'annotations'] as const) {
    const entries = metadata[map];
    if (!isRecord(entries)) continue;
    for (const [key, value] of Object.entries(entries)) {
      const path = `${at}.${map}${segment(key)}`;
      const keyProblem = problemIn(key, CONTROL_OR_LINE);
      if (keyProblem !== undefined) return { path, message: `key ${keyProblem}` };
      if (typeof value !== 'string') continue;
      const valueProblem = problemIn(value, map === 'labels' ? CONTROL_OR_LINE : CONTROL);
      if (valueProblem !== undefined) return { path, message: valueProblem };
    }
  }
  return undefined;
}

/**
 * The first control character or unpaired surrogate in a document's names, labels or
 * annotations: its own `metadata`, a template's, and those of a List's items, at any depth.
 */
export function metadataTextProblem(value: unknown, at = ''): TextProblem | undefined {
  if (!isRecord(value)) return undefined;
  const prefix = at === '' ? '' : at;
  if (isRecord(value.metadata)) {
    const found = checkMetadata(
      value.metadata,
      `${prefix}${prefix === '' ? '' : '.'}metadata`.replace(/^\./, ''),
    );
    if (found !== undefined) return found;
  }
  if (isRecord(value.spec) && isRecord(value.spec.template)) {
    const found = metadataTextProblem(
      value.spec.template,
      `${prefix === '' ? '' : `${prefix}.`}spec.template`,
    );
    if (found !== undefined) return found;
  }
  if (Array.isArray(value.items)) {
    for (const [i, item] of value.items.entries()) {
      const found = metadataTextProblem(item, `${prefix}items[${i}]`);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}
