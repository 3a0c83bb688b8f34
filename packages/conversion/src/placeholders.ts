import { kubernetesYamlTags, parentKey, writeManifest } from '@capi-kit/core/manifest';
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

/**
 * How the input wrote its placeholder-bearing strings: quoted or bare, by string and by the
 * key each is the value of. One placeholder may be written both ways (`x: "${CPUS}"` in a
 * label, `numCPUs: ${CPUS}` in a providerSpec); quoting it wherever it appeared quoted once
 * turned the bare number into a string after substitution.
 */
export interface PlaceholderQuoting {
  /** Strings written quoted somewhere. */
  readonly quoted: ReadonlySet<string>;
  /** `key\0string` of the values written quoted, and of those written bare. */
  readonly quotedAt: ReadonlySet<string>;
  readonly bareAt: ReadonlySet<string>;
}

/** The placeholder-bearing strings the input wrote in quotes (and, by key, those it did not). */
export function quotedPlaceholders(text: string): PlaceholderQuoting {
  const quoted = new Set<string>();
  const quotedAt = new Set<string>();
  const bareAt = new Set<string>();
  if (!text.includes('${')) return { quoted, quotedAt, bareAt };
  for (const doc of parseAllDocuments(text, yamlOptions) as Document.Parsed[]) {
    visit(doc, {
      Scalar(at, node, path) {
        if (!hasPlaceholder(node.value)) return;
        const isQuoted = node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE';
        if (isQuoted) quoted.add(node.value);
        const key = parentKey(at, path);
        if (key !== undefined) (isQuoted ? quotedAt : bareAt).add(`${key}\0${node.value}`);
      },
    });
  }
  return { quoted, quotedAt, bareAt };
}

/**
 * Multi-document YAML, with the quoted placeholders of the input quoted again: a value under a
 * key where the input wrote that string only one way is written that way; otherwise (a key it
 * moved to, or both ways under one key) it is quoted if the input quoted it anywhere.
 */
export function writeYaml(values: readonly unknown[], quoting: PlaceholderQuoting): string {
  const { quoted, quotedAt, bareAt } = quoting;
  if (quoted.size === 0) return writeManifest(values, 'yaml');
  return writeManifest(values, 'yaml', {
    quoted: (value, key) => {
      if (!quoted.has(value)) return false;
      if (key === undefined) return true;
      const at = `${key}\0${value}`;
      const q = quotedAt.has(at);
      return q === bareAt.has(at) ? true : q;
    },
  });
}
