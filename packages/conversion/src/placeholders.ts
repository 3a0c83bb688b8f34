import { kubernetesYamlTags, writeManifest } from '@capi-kit/core/manifest';
import { type Document, parseAllDocuments, visit } from 'yaml';

/**
 * clusterctl-era manifests are envsubst templates: `name: "${CLUSTER_NAME}-md-0"`,
 * `numCPUs: ${VSPHERE_NUM_CPUS}`. The quotes decide what the value becomes after
 * substitution (a quoted `"${PORT}"` stays a string, a bare `${PORT}` becomes a number), so
 * placeholder strings that were quoted in the input are quoted in the output too. Everything
 * else is written as `writeManifest` of `@capi-kit/core/manifest` writes it (it does all
 * the writing, told which strings to quote).
 */
const yamlOptions = { version: '1.1', customTags: kubernetesYamlTags } as const;

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
  return writeManifest(values, 'yaml', { quoted });
}
