import { writeFile } from 'node:fs/promises';
import {
  CHAIN_VERSIONS,
  type ConversionReport,
  convertManifest,
  formatConversionError,
  formatReport,
  type ReferenceApiVersionLookup,
  V1ALPHA2,
} from '@capi-kit/conversion';
import { omittedText } from '@capi-kit/core/manifest';
import { awsConversionPlugin } from '@capi-kit/providers-aws';
import { vsphereConversionPlugin } from '@capi-kit/providers-vsphere';
import { oneOf, parseCommandLine } from '../args.js';
import { loadKubeConfigOrReport } from '../cluster-client.js';
import type { CommandBody } from '../command.js';
import { ExitCode, UsageError } from '../exit-codes.js';
import { type CliIO, readInput } from '../io.js';
import { jsonText, printable, printableLines, safeJSON } from '../text.js';
import { withEscapes } from '../yaml-text.js';

// Every conversion plug-in capi-kit ships, in the order they are asked.
const plugins = [awsConversionPlugin, vsphereConversionPlugin];

const usage = `Usage: capi-kit convert -f FILE|- [--to VERSION] [-o yaml|json] [--report [FILE|-]]
                        [--kubeconfig FILE] [--context NAME]

Converts Cluster API manifests between any two of cluster.k8s.io/v1alpha1 (CAPI v0.1),
cluster.x-k8s.io/v1alpha2 (v0.2), v1alpha3 (v0.3), v1alpha4 (v0.4), v1beta1 (v1.0-v1.10)
and v1beta2 (v1.11+), losslessly: whatever the target version cannot express is kept in
the conversion.capi-kit.dev/data annotation, and converting back restores it.

Going up, each providerSpec becomes v1alpha2 infrastructure and bootstrap objects through
a provider plug-in (aws, vsphere); a MachineClass named by valueFrom.machineClass must be
in the same manifest. Documents of other API groups, and those already at the target
version, pass through unchanged. \${VAR} template placeholders stay as text.

Going down from v1beta2, a reference {apiGroup, kind, name} needs its apiVersion back. By
default conversion stays offline: the conversion stash restores it when present, else the
reference is kept without one and a warning says so. With --kubeconfig or --context, the
apiVersion is looked up as Cluster API does, from the cluster.x-k8s.io/<contract> labels of
the referenced kind's CRD on that cluster (contract v1beta2, else v1beta1; the newest version
listed).

The converted manifest goes to stdout, warnings to stderr. If any document fails, its
error (document number, kind, name, field) goes to stderr and nothing to stdout.

Options:
  -f, --file FILE    the manifest to read (multi-document YAML or JSON); - reads stdin
      --to VERSION   cluster.x-k8s.io/v1alpha2 (default), cluster.k8s.io/v1alpha1,
                     cluster.x-k8s.io/v1alpha3, v1alpha4, v1beta1 or v1beta2
  -o, --output FMT   yaml (default) or json (several documents become one v1 List)
      --report FILE  write the conversion report (what moved where, what was stashed,
                     warnings) to FILE (JSON if FILE ends in .json); - or no FILE
                     (--report last, or before another option) writes it to stderr
      --kubeconfig FILE  look reference apiVersions up on this cluster (opt-in)
      --context NAME     ... with this context of the kubeconfig (KUBECONFIG, else
                         ~/.kube/config, when --kubeconfig is not given)

Exit codes: 0 converted, 1 a document could not be read or converted, 2 usage error,
3 the contract lookup's cluster could not be read (nothing on stdout then).
`;

async function writeReport(io: CliIO, target: string, report: ConversionReport): Promise<string | undefined> {
  if (target === '-') {
    io.stderr(printableLines(formatReport(report)));
    return undefined;
  }
  const text = target.endsWith('.json') ? `${jsonText(report, 2)}\n` : formatReport(report);
  try {
    await writeFile(target, text, 'utf8');
    return undefined;
  } catch (error) {
    return `cannot write report ${printable(target)}: ${printable((error as NodeJS.ErrnoException).code ?? String(error))}`;
  }
}

/**
 * The CLI contract writes `--report` as a bare flag, so `--report` with no FILE after it (last,
 * or followed by another option) means `--report -`. convert takes no positionals, so a word
 * after `--report` is always its FILE.
 */
function bareReportToStderr(args: readonly string[]): string[] {
  return args.flatMap((arg, i) => {
    const next = args[i + 1];
    const bare = arg === '--report' && (next === undefined || (next.startsWith('-') && next !== '-'));
    return bare ? ['--report', '-'] : [arg];
  });
}

/**
 * The live contract lookup, when asked for (--kubeconfig / --context): the provider CRDs are
 * read once, before converting. undefined: offline; a number: the exit code of a failure.
 */
async function contractLookup(
  io: CliIO,
  kubeconfig: string | undefined,
  context: string | undefined,
): Promise<ReferenceApiVersionLookup | number | undefined> {
  if (kubeconfig === undefined && context === undefined) return undefined;
  // (the context is checked as the current one: its user, cluster and credentials)
  const loaded = await loadKubeConfigOrReport(io, 'convert', kubeconfig, context);
  if (typeof loaded === 'number') return loaded;
  // Loaded on first use: client-node takes a while to import.
  const { loadReferenceApiVersions } = await import('@capi-kit/client');
  const lookup = await loadReferenceApiVersions(loaded);
  if (lookup._tag === 'Left') {
    io.stderr(`capi-kit convert: contract lookup: ${printable(lookup.left.message)}\n`);
    return ExitCode.cluster;
  }
  return lookup.right;
}

export const convertCommand: CommandBody = {
  usage,
  run: async (args, io) => {
    const { values, positionals } = parseCommandLine(bareReportToStderr(args), {
      file: { type: 'string', short: 'f' },
      to: { type: 'string' },
      output: { type: 'string', short: 'o' },
      report: { type: 'string' },
      kubeconfig: { type: 'string' },
      context: { type: 'string' },
    });
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    const to = oneOf('--to', values.to, CHAIN_VERSIONS, V1ALPHA2);
    const format = oneOf('-o', values.output, ['yaml', 'json'], 'yaml');
    const input = await readInput(io, values.file);
    const referenceApiVersion = await contractLookup(io, values.kubeconfig, values.context);
    if (typeof referenceApiVersion === 'number') return referenceApiVersion;
    const result = convertManifest(input.text, {
      to,
      plugins,
      format,
      // (bidi and invisible characters of the input reach the terminal escaped, as with get)
      wrapYamlWriter: withEscapes,
      ...(referenceApiVersion === undefined ? {} : { referenceApiVersion }),
    });
    if (result._tag === 'Right' && result.right.report.documents.length === 0) {
      io.stderr(`capi-kit convert: ${printable(input.name)}: no documents; nothing to convert\n`);
      return ExitCode.input;
    }
    if (result._tag === 'Left') {
      for (const error of result.left)
        io.stderr(`capi-kit convert: ${printable(input.name)}: ${printable(formatConversionError(error))}\n`);
      // (past the reader's cap its last line is a note counting what it left out, no error)
      const note = result.left.find((e) => e.omitted !== undefined)?.omitted;
      const n = result.left.length - (note === undefined ? 0 : 1);
      const count = `${n} error${n === 1 ? '' : 's'}`;
      const summary = note === undefined ? count : `${count} shown, then ${omittedText(note)}`;
      io.stderr(`capi-kit convert: ${summary}; nothing written\n`);
      return ExitCode.input;
    }
    const { text, report } = result.right;
    if (values.report !== undefined) {
      const failed = await writeReport(io, values.report, report);
      if (failed !== undefined) {
        io.stderr(`capi-kit convert: ${failed}; nothing written\n`);
        return ExitCode.input;
      }
    }
    for (const warning of report.warnings) io.stderr(`capi-kit convert: warning: ${printable(warning)}\n`);
    // -o json: the manifest as JSON, its values unchanged; YAML is written as converted.
    io.stdout(format === 'json' ? safeJSON(text) : text);
    return ExitCode.ok;
  },
};
