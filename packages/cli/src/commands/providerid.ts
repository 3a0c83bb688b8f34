import {
  type ParseOptions,
  type ParseProviderIDResult,
  parseProviderID,
  providerIDRegistry,
  sameInstance,
} from '@capi-kit/providerid';
import { parseCommandLine } from '../args.js';
import type { CommandBody } from '../command.js';
import { ExitCode, UsageError } from '../exit-codes.js';
import { type CliIO, stdinLines, textLines } from '../io.js';
import { jsonText, printable } from '../text.js';

const usage = `Usage: capi-kit providerid parse [ID ...] [--cloud CLOUD] [--json]
       capi-kit providerid match [NODE_ID MACHINE_ID] [--cloud CLOUD] [--json]
       capi-kit providerid clouds [--json]

parse   Reads each providerID: its cloud, the cloud's fields and the identity key (equal
        keys mean the same instance). With no ID arguments, reads one ID a line from
        standard input. The scheme picks the cloud; an ID without a scheme is read only
        when its shape is unambiguous (Azure resource path, OCI OCID, Alibaba
        region.instance, EC2 instance ID) or --cloud names the cloud. A scheme no cloud
        claims is invalid (the error says whether Cluster API's generic grammar would
        accept it); --cloud generic applies that grammar to any ID.
        --json: one {"input","valid","cloud","fields","key","canonical"} object a line;
        an invalid ID has "error" and "errorCode" (empty, malformed, invalid-field, …)
        instead of "canonical", and null fields and key (cloud: the cloud that refused it).
match   Whether a Node's and a Machine's providerIDs denote the same instance, with the
        reason; the verdict is "same", "different" or "unknown" (the strings cannot tell),
        and match is true only for "same". With no ID arguments, reads
        NODE_ID<TAB>MACHINE_ID lines from standard input. Output is streamed: each
        line's result is printed as the line is read, so a malformed line is reported
        (in place, and on stderr) after the results of the lines before it.
        --json: one {"match","verdict","reason","nodeProviderID","machineProviderID"}
        object a line.
clouds  Lists the clouds, their schemes and titles.

Options:
      --cloud CLOUD  parse with this cloud's grammar whatever the scheme (e.g. bare IDs)
      --json         JSON lines instead of text

Exit codes: parse: 0 every ID valid, 1 any ID invalid. match: 0 when every pair was
compared, whatever the verdicts; 1 when a stdin line is not NODE_ID<TAB>MACHINE_ID.
2 usage error (unknown subcommand or cloud, wrong number of IDs).
`;

/**
 * An ID as text output quotes it: a JSON string literal whose controls, bidi, format and
 * invisible characters are \u escapes, as the parse errors' messages quote it.
 */
function quoted(id: string): string {
  return jsonText(id);
}

function checkCloud(cloud: string | undefined): void {
  if (cloud !== undefined && providerIDRegistry.grammar(cloud) === undefined) {
    throw new UsageError(`unknown cloud '${cloud}' (known: ${providerIDRegistry.clouds().join(', ')})`);
  }
}

function parseJSON(input: string, result: ParseProviderIDResult): string {
  if (result._tag === 'Right') {
    const { cloud, fields, key, canonical } = result.right;
    return jsonText({ input, valid: true, cloud, fields, key, canonical });
  }
  const { cloud, message, code } = result.left;
  return jsonText({
    input,
    valid: false,
    cloud: cloud ?? null,
    fields: null,
    key: null,
    error: message,
    errorCode: code,
  });
}

function parseText(input: string, result: ParseProviderIDResult): string {
  if (result._tag === 'Right') {
    const { cloud, fields, key } = result.right;
    const shown = Object.entries(fields)
      .map(([name, value]) => `${name}=${value}`)
      .join(' ');
    return `valid    ${cloud}  ${printable(input)}\n         ${printable(shown)}\n         key ${printable(key)}`;
  }
  const cloud = result.left.cloud ? `${result.left.cloud}  ` : '';
  return `invalid  ${cloud}${quoted(input)}\n         ${printable(result.left.message)}`;
}

async function runParse(ids: readonly string[], options: ParseOptions, json: boolean, io: CliIO) {
  const inputs = ids.length > 0 ? ids : textLines(await io.readStdin());
  let invalid = 0;
  for (const input of inputs) {
    const result = parseProviderID(input, options);
    if (result._tag === 'Left') invalid++;
    io.stdout(`${json ? parseJSON(input, result) : parseText(input, result)}\n`);
  }
  return invalid === 0 ? ExitCode.ok : ExitCode.input;
}

function matchLine(node: string, machine: string, options: ParseOptions, json: boolean): string {
  const result = sameInstance(node, machine, options);
  if (json) {
    return jsonText({
      match: result.match,
      verdict: result.verdict,
      reason: result.reason,
      nodeProviderID: node,
      machineProviderID: machine,
    });
  }
  const label = { same: 'match   ', different: 'no match', unknown: 'unknown ' }[result.verdict];
  return `${label}  ${quoted(node)}  ${quoted(machine)}\n          ${printable(result.reason)}`;
}

async function runMatch(ids: readonly string[], options: ParseOptions, json: boolean, io: CliIO) {
  if (ids.length === 2) {
    io.stdout(`${matchLine(ids[0]!, ids[1]!, options, json)}\n`);
    return ExitCode.ok;
  }
  if (ids.length !== 0)
    throw new UsageError(`match takes NODE_ID MACHINE_ID, or none to read stdin (got ${ids.length})`);
  let bad = 0;
  let number = 0;
  for await (const line of stdinLines(io)) {
    number += 1;
    const fields = line.split('\t');
    if (fields.length !== 2) {
      bad++;
      const error = `line ${number}: expected NODE_ID<TAB>MACHINE_ID (found ${fields.length - 1} tabs)`;
      if (json) io.stdout(`${jsonText({ line: number, input: line, error })}\n`);
      io.stderr(`capi-kit providerid: ${error}\n`);
      continue;
    }
    io.stdout(`${matchLine(fields[0]!, fields[1]!, options, json)}\n`);
  }
  return bad === 0 ? ExitCode.ok : ExitCode.input;
}

function runClouds(json: boolean, io: CliIO) {
  for (const cloud of providerIDRegistry.clouds()) {
    const grammar = providerIDRegistry.grammar(cloud)!;
    io.stdout(
      json
        ? `${jsonText({ cloud, schemes: grammar.schemes, title: grammar.title })}\n`
        : `${cloud.padEnd(14)} ${(grammar.schemes.join(', ') || '(any other)').padEnd(34)} ${grammar.title}\n`,
    );
  }
  return ExitCode.ok;
}

export const providerIDCommand: CommandBody = {
  usage,
  async run(args, io) {
    const { values, positionals } = parseCommandLine(args, {
      json: { type: 'boolean' },
      cloud: { type: 'string' },
    });
    const [sub, ...ids] = positionals;
    const json = values.json === true;
    checkCloud(values.cloud);
    const options: ParseOptions = values.cloud === undefined ? {} : { cloud: values.cloud };
    switch (sub) {
      case 'parse':
        return runParse(ids, options, json, io);
      case 'match':
        return runMatch(ids, options, json, io);
      case 'clouds':
        if (ids.length > 0) throw new UsageError('clouds takes no arguments');
        // (it was taken and ignored: the list is every cloud's)
        if (values.cloud !== undefined) throw new UsageError('--cloud goes with parse and match, not clouds');
        return runClouds(json, io);
      case undefined:
        throw new UsageError('missing subcommand: parse, match or clouds');
      default:
        throw new UsageError(`unknown subcommand '${sub}' (expected parse, match or clouds)`);
    }
  },
};
