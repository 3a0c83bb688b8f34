import * as E from 'fp-ts/lib/Either.js';
import { type Document, LineCounter, parseAllDocuments, type Tags } from 'yaml';
import type { ManifestDocument, ManifestError } from './document.js';

/**
 * Kubernetes reads manifests with go-yaml v2 (via sigs.k8s.io/yaml), which follows YAML 1.1:
 * `on`/`yes`/`off`/`no` are booleans and `0755` is octal. go-yaml keeps timestamps and
 * base-60 numbers as strings when the target is untyped, so those resolvers are left out.
 */
export function kubernetesYamlTags(tags: Tags): Tags {
  return tags.filter(
    (tag) => typeof tag === 'string' || (tag.tag !== 'tag:yaml.org,2002:timestamp' && tag.format !== 'TIME'),
  );
}

export const yamlParseOptions = { version: '1.1', customTags: kubernetesYamlTags } as const;

/** The first line of a `yaml` error message, without the position the error already carries. */
function shortMessage(message: string): string {
  const first = message.split('\n', 1)[0] ?? message;
  return first.replace(/ at line \d+, column \d+:?$/, '').trim();
}

function isEmpty(doc: Document.Parsed): boolean {
  if (doc.contents === null) return true;
  return doc.errors.length === 0 && doc.toJS() === null;
}

/**
 * Reads a manifest: multi-document YAML (`---` separated) or a JSON text, which is one
 * document (a JSON array stays one document whose value is the array).
 *
 * Empty documents (only comments, or nothing between two `---`) are skipped and not counted.
 * Returns every syntax error of every document, or the documents when there are none.
 */
export function readManifest(text: string): E.Either<ManifestError[], ManifestDocument[]> {
  const lineCounter = new LineCounter();
  const parsed = parseAllDocuments(text, { ...yamlParseOptions, lineCounter, prettyErrors: true });
  const docs = Array.isArray(parsed) ? parsed : [];
  const errors: ManifestError[] = [];
  const documents: ManifestDocument[] = [];
  let index = 0;
  for (const doc of docs) {
    if (doc.errors.length === 0 && isEmpty(doc)) continue;
    for (const error of doc.errors) {
      const pos = error.linePos?.[0] ?? lineCounter.linePos(error.pos[0]);
      errors.push({ index, line: pos.line, column: pos.col, message: shortMessage(error.message) });
    }
    if (doc.errors.length === 0) {
      const start = doc.contents?.range[0] ?? doc.range[0];
      documents.push({
        index,
        line: lineCounter.linePos(start).line,
        value: doc.toJS({ maxAliasCount: 1000 }),
      });
    }
    index += 1;
  }
  return errors.length > 0 ? E.left(errors) : E.right(documents);
}
