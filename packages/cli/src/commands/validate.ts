import { type DecodeError, decode } from '@capi-kit/core';
import { documentLabel, type ManifestDocument } from '@capi-kit/core/manifest';
import { isV1List, objectLabel } from '@capi-kit/core/objects';
import { parseCommandLine } from '../args.js';
import type { CommandBody } from '../command.js';
import { ExitCode, UsageError } from '../exit-codes.js';
import { readManifestInput } from '../manifest-input.js';
import { isNamespaceName, isSubdomainName } from '../names.js';
import { printable } from '../text.js';

const usage = `Usage: capi-kit validate -f FILE|- [--strict]

Checks every document of a manifest (multi-document YAML or JSON) against the Cluster API
schemas (cluster.k8s.io/v1alpha1; cluster.x-k8s.io v1alpha2, v1alpha3, v1alpha4, v1beta1
and v1beta2: Cluster, Machine, MachineSet, MachineDeployment, MachineHealthCheck and their
Lists). A v1 List is checked item by item. ClusterClass and MachinePool are kinds no
package types: they are skipped like provider kinds.

Prints one line per error on stdout: the document (1-based number, kind and name, line),
the JSON path, what was expected and what was found. Documents of kinds no loaded package
knows (Secrets, provider kinds) are listed as skipped on stderr and do not fail the run.

Options:
  -f, --file FILE  the manifest to read; - reads standard input
      --strict     also report fields the schemas do not define, and fail on skipped kinds

Exit codes: 0 every document is valid, 1 an error was found, 2 usage error.
`;

/** What happened to one object: its error lines, or why it was skipped. */
interface Verdict {
  readonly errors: string[];
  readonly skipped?: string;
}

function verdictOf(error: DecodeError | undefined, prefix: string, strict: boolean): Verdict {
  if (error === undefined) return { errors: [] };
  switch (error.code) {
    case 'invalid':
      return { errors: error.errors.map((e) => `${prefix}${e.message}`) };
    case 'not-an-object':
    case 'invalid-type-meta':
      return { errors: [`${prefix}${error.message}`] };
    case 'unknown-kind':
      return strict
        ? { errors: [`${prefix}${error.message} (--strict fails on kinds it cannot check)`] }
        : { errors: [], skipped: `${prefix}skipped: ${error.message}` };
  }
}

function check(value: unknown, prefix: string, strict: boolean): Verdict[] {
  if (isV1List(value)) {
    if (!Array.isArray(value.items)) return [{ errors: [`${prefix}items: expected an array of objects`] }];
    return value.items.flatMap((item, i) => {
      const what = objectLabel(item);
      return check(item, `${prefix}items[${i}]${what === '' ? '' : ` (${what})`}: `, strict);
    });
  }
  const result = decode(value, { strict });
  const verdict = verdictOf(result._tag === 'Left' ? result.left : undefined, prefix, strict);
  if (!strict) return [verdict];
  return [{ ...verdict, errors: [...verdict.errors, ...nameErrors(value).map((e) => `${prefix}${e}`)] }];
}

/**
 * --strict: names as the API server checks them. Object names are DNS-1123 subdomains
 * (at most 253 characters, dot-separated labels), namespaces DNS-1123 labels (at most 63).
 */
function nameErrors(value: unknown): string[] {
  const metadata = (value as { metadata?: unknown } | null)?.metadata;
  if (typeof metadata !== 'object' || metadata === null) return [];
  const { name, namespace } = metadata as { name?: unknown; namespace?: unknown };
  const errors: string[] = [];
  if (typeof name === 'string' && !isSubdomainName(name)) {
    errors.push(
      `metadata.name: ${JSON.stringify(name)} is not a DNS-1123 subdomain (lowercase letters, digits, '-' and '.', at most 253 characters)`,
    );
  }
  if (typeof namespace === 'string' && !isNamespaceName(namespace)) {
    errors.push(
      `metadata.namespace: ${JSON.stringify(namespace)} is not a DNS-1123 label (lowercase letters, digits and '-', at most 63 characters)`,
    );
  }
  return errors;
}

function checkDocument(doc: ManifestDocument, strict: boolean): Verdict[] {
  return check(doc.value, `${documentLabel(doc)}: `, strict);
}

export const validateCommand: CommandBody = {
  usage,
  run: async (args, io) => {
    const { values, positionals } = parseCommandLine(args, {
      file: { type: 'string', short: 'f' },
      strict: { type: 'boolean', default: false },
    });
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    const strict = values.strict === true;
    const input = await readManifestInput(io, values.file, io.stdout);
    if (input === undefined) return ExitCode.input;
    let invalid = 0;
    let skipped = 0;
    let checked = 0;
    for (const doc of input.documents) {
      for (const verdict of checkDocument(doc, strict)) {
        checked += 1;
        for (const line of verdict.errors) io.stdout(`${printable(line)}\n`);
        if (verdict.errors.length > 0) invalid += 1;
        if (verdict.skipped !== undefined) {
          skipped += 1;
          io.stderr(`${printable(verdict.skipped)}\n`);
        }
      }
    }
    const valid = checked - invalid - skipped;
    io.stderr(
      `${printable(input.name)}: ${checked} object(s): ${valid} valid, ${invalid} invalid, ${skipped} skipped\n`,
    );
    return invalid > 0 ? ExitCode.input : ExitCode.ok;
  },
};
