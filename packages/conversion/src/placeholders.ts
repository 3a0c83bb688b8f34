import { kubernetesYamlTags, writeManifest } from '@capi-kit/core/manifest';
import { Document, parseAllDocuments, type Tags, visit } from 'yaml';

/**
 * clusterctl-era manifests are envsubst templates: `name: "${CLUSTER_NAME}-md-0"`,
 * `numCPUs: ${VSPHERE_NUM_CPUS}`. The quotes decide what the value becomes after
 * substitution (a quoted `"${PORT}"` stays a string, a bare `${PORT}` becomes a number), so
 * placeholder strings that were quoted in the input are quoted in the output too. Everything
 * else is written as `writeManifest` of `@capi-kit/core/manifest` writes it (it does all
 * the writing when no placeholder needs its quotes back).
 */
const yamlOptions = { version: '1.1', customTags: kubernetesYamlTags } as const;

/**
 * For the documents whose placeholders get their quotes back: writeManifest's YAML 1.1 tags
 * without the merge key, so the string "<<" can be written quoted, as writeManifest writes it.
 */
const writeOptions = {
  version: '1.1',
  customTags: (tags: Tags) =>
    kubernetesYamlTags(tags).filter(
      (tag) => typeof tag === 'string' || tag.tag !== 'tag:yaml.org,2002:merge',
    ),
  aliasDuplicateObjects: false,
} as const;

function hasPlaceholder(value: unknown): value is string {
  return typeof value === 'string' && value.includes('${');
}

/** The placeholder-bearing strings the input wrote in quotes. */
export function quotedPlaceholders(text: string): ReadonlySet<string> {
  const quoted = new Set<string>();
  if (!text.includes('${')) return quoted;
  for (const doc of parseAllDocuments(text, yamlOptions) as Document.Parsed[]) {
    visit(doc, {
      Scalar(_key, node) {
        if (hasPlaceholder(node.value) && (node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE')) {
          quoted.add(node.value);
        }
      },
    });
  }
  return quoted;
}

/** Multi-document YAML, with the quoted placeholders of the input quoted again. */
export function writeYaml(values: readonly unknown[], quoted: ReadonlySet<string>): string {
  if (quoted.size === 0) return writeManifest(values, 'yaml');
  return values
    .map((value) => {
      const doc = new Document(value, writeOptions);
      visit(doc, {
        Scalar(_key, node) {
          // a plain << is a YAML 1.1 merge key: writeManifest quotes the string "<<"
          if (node.value === '<<' || (hasPlaceholder(node.value) && quoted.has(node.value)))
            node.type = 'QUOTE_DOUBLE';
        },
      });
      return doc.toString({ lineWidth: 0 });
    })
    .join('---\n');
}
