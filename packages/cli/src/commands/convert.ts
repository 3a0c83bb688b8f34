import { writeFile } from 'node:fs/promises';
import {
  CHAIN_VERSIONS,
  type ConversionReport,
  convertManifest,
  formatConversionError,
  formatReport,
  V1ALPHA2,
} from '@capi-kit/conversion';
import { awsConversionPlugin } from '@capi-kit/providers-aws';
import { vsphereConversionPlugin } from '@capi-kit/providers-vsphere';
import { oneOf, parseCommandLine } from '../args.js';
import type { CommandBody } from '../command.js';
import { ExitCode, UsageError } from '../exit-codes.js';
import { type CliIO, readInput } from '../io.js';

// Every conversion plug-in capi-kit ships, in the order they are asked.
const plugins = [awsConversionPlugin, vsphereConversionPlugin];

const usage = `Usage: capi-kit convert -f FILE|- [--to VERSION] [-o yaml|json] [--report [FILE|-]]

Converts Cluster API manifests between any two of cluster.k8s.io/v1alpha1 (CAPI v0.1),
cluster.x-k8s.io/v1alpha2 (v0.2), v1alpha3 (v0.3), v1alpha4 (v0.4), v1beta1 (v1.0-v1.10)
and v1beta2 (v1.11+), losslessly: whatever the target version cannot express is kept in
the conversion.capi-kit.dev/data annotation, and converting back restores it.

Going up, each providerSpec becomes v1alpha2 infrastructure and bootstrap objects through
a provider plug-in (aws, vsphere); a MachineClass named by valueFrom.machineClass must be
in the same manifest. Documents of other API groups, and those already at the target
version, pass through unchanged. \${VAR} template placeholders stay as text.

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

Exit codes: 0 converted, 1 a document could not be read or converted, 2 usage error.
`;

async function writeReport(io: CliIO, target: string, report: ConversionReport): Promise<string | undefined> {
  if (target === '-') {
    io.stderr(formatReport(report));
    return undefined;
  }
  const text = target.endsWith('.json') ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report);
  try {
    await writeFile(target, text, 'utf8');
    return undefined;
  } catch (error) {
    return `cannot write report ${target}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`;
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

export const convertCommand: CommandBody = {
  usage,
  run: async (args, io) => {
    const { values, positionals } = parseCommandLine(bareReportToStderr(args), {
      file: { type: 'string', short: 'f' },
      to: { type: 'string' },
      output: { type: 'string', short: 'o' },
      report: { type: 'string' },
    });
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    const to = oneOf('--to', values.to, CHAIN_VERSIONS, V1ALPHA2);
    const format = oneOf('-o', values.output, ['yaml', 'json'], 'yaml');
    const input = await readInput(io, values.file);
    const result = convertManifest(input.text, { to, plugins, format });
    if (result._tag === 'Right' && result.right.report.documents.length === 0) {
      io.stderr(`capi-kit convert: ${input.name}: no documents; nothing to convert\n`);
      return ExitCode.input;
    }
    if (result._tag === 'Left') {
      for (const error of result.left)
        io.stderr(`capi-kit convert: ${input.name}: ${formatConversionError(error)}\n`);
      const n = result.left.length;
      io.stderr(`capi-kit convert: ${n} error${n === 1 ? '' : 's'}; nothing written\n`);
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
    for (const warning of report.warnings) io.stderr(`capi-kit convert: warning: ${warning}\n`);
    io.stdout(text);
    return ExitCode.ok;
  },
};
