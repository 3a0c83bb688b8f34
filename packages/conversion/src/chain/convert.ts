import * as E from 'fp-ts/lib/Either.js';
import {
  type ConvertOptions,
  convertKind,
  convertObject,
  type DocumentConversion,
  type ObjectConversion,
} from '../convert.js';
import type { ConversionError, ConversionErrorCode } from '../errors.js';
import type { AppliedMove } from '../moves.js';
import { clone, getPath, isObject, type JsonObject } from '../path.js';
import type { ObjectReport } from '../report.js';
import { apiGroup, type Direction, V1ALPHA1, V1ALPHA1_GROUP, V1ALPHA2, V1ALPHA2_GROUP } from '../versions.js';
import { convertHop, type Hop, type HopOptions } from './hop.js';
import { TABLE_HOPS } from './hops/index.js';
import { joinStack, splitStack } from './stack.js';
import {
  CHAIN_VERSIONS,
  type ChainKind,
  type ChainVersion,
  isChainKind,
  isChainVersion,
  KIND_SINCE,
  kindExistsIn,
  versionIndex,
} from './versions.js';

/** Options for a conversion anywhere along the chain. */
export interface ChainOptions extends ConvertOptions, HopOptions {}

type Failure = { readonly code?: ConversionErrorCode; readonly path?: string; readonly message: string };

/** One step of a walk along the chain: the hop, and which way it is taken. */
interface Step {
  readonly hop: Hop | 'v1alpha1-v1alpha2';
  readonly direction: Direction;
  readonly to: ChainVersion;
}

/** The hops from one version to another, in order. */
export function chainPath(from: ChainVersion, to: ChainVersion): Step[] {
  const a = versionIndex(from);
  const b = versionIndex(to);
  const steps: Step[] = [];
  const hopAt = (lowerIndex: number): Step['hop'] =>
    lowerIndex === 0 ? 'v1alpha1-v1alpha2' : TABLE_HOPS[lowerIndex - 1]!;
  if (a < b)
    for (let i = a; i < b; i++) steps.push({ hop: hopAt(i), direction: 'up', to: CHAIN_VERSIONS[i + 1]! });
  else
    for (let i = a; i > b; i--)
      steps.push({ hop: hopAt(i - 1), direction: 'down', to: CHAIN_VERSIONS[i - 1]! });
  return steps;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function identity(object: JsonObject): { name?: string; namespace?: string } {
  const name = str(getPath(object, ['metadata', 'name']));
  const namespace = str(getPath(object, ['metadata', 'namespace']));
  return { ...(name === undefined ? {} : { name }), ...(namespace === undefined ? {} : { namespace }) };
}

/**
 * Converts one object of a chain kind from its version to `to`, hop by hop. Each hop sees
 * only the stash meant for it (stack.ts); the report adds up what every hop did.
 */
export function convertAlongChain(
  input: JsonObject,
  kind: ChainKind,
  from: ChainVersion,
  to: ChainVersion,
  options: ChainOptions = {},
): E.Either<Failure, ObjectConversion> {
  for (const version of [from, to]) {
    if (!kindExistsIn(kind, version)) {
      return E.left({
        path: 'kind',
        message: `${kind} exists only from ${KIND_SINCE[kind]} on; ${version} has no such kind`,
      });
    }
  }
  let object = input;
  const moves: AppliedMove[] = [];
  const stashed: string[] = [];
  const restored: string[] = [];
  const keptEdits: string[] = [];
  const warnings: string[] = [];
  let generated: readonly JsonObject[] = [];
  let generatedNames: readonly string[] = [];
  for (const step of chainPath(from, to)) {
    const split = splitStack(object, step.to);
    if (E.isLeft(split)) return split;
    const { buried } = split.right;
    let out: JsonObject;
    if (step.hop === 'v1alpha1-v1alpha2') {
      const result = convertKind(
        split.right.object,
        kind as Exclude<ChainKind, 'MachineHealthCheck'>,
        step.direction,
        options,
      );
      if (E.isLeft(result)) return result;
      const r = result.right;
      out = r.object;
      moves.push(...r.report.moves);
      stashed.push(...r.report.stashed);
      restored.push(...r.report.restored);
      keptEdits.push(...r.report.keptEdits);
      warnings.push(...r.report.warnings);
      generated = r.generated;
      generatedNames = r.report.generated;
    } else {
      const table = step.hop.tables[kind];
      if (table === undefined)
        return E.left({
          path: 'kind',
          message: `no ${kind} conversion between ${step.hop.lower} and ${step.hop.upper}`,
        });
      const result = convertHop(split.right.object, step.hop, table, step.direction, options);
      if (E.isLeft(result)) return result;
      const r = result.right;
      out = r.object;
      moves.push(...r.moves);
      stashed.push(...r.stashed);
      restored.push(...r.restored);
      keptEdits.push(...r.keptEdits);
      warnings.push(...r.warnings);
    }
    object = joinStack(out, buried);
  }
  const report: ObjectReport = {
    kind,
    ...identity(input),
    action: 'converted',
    from,
    to,
    moves,
    stashed,
    restored,
    keptEdits,
    generated: generatedNames,
    warnings,
  };
  return E.right({ object: object === input ? clone(input) : object, generated, report });
}

function unchangedReport(object: JsonObject, kind: string): ObjectReport {
  return {
    kind,
    ...identity(object),
    action: 'unchanged',
    moves: [],
    stashed: [],
    restored: [],
    keptEdits: [],
    generated: [],
    warnings: [],
  };
}

const OLD_PAIR: readonly string[] = [V1ALPHA1, V1ALPHA2];

/**
 * Converts one object (or List) to any version of the chain. Objects of other API groups, and
 * objects already at `to`, come back unchanged. Between v1alpha1 and v1alpha2 this is
 * `convertObject` (MachineClass handling and all).
 */
export function convertTo(
  value: unknown,
  to: ChainVersion,
  options: ChainOptions = {},
): E.Either<ConversionError, DocumentConversion> {
  if (!isObject(value)) return E.left({ code: 'invalid-object', message: 'is not an object' });
  const apiVersion = value.apiVersion;
  const kind = value.kind;
  const id = identity(value);
  const fail = (f: Failure): ConversionError => ({
    code: 'invalid-object',
    ...(typeof kind === 'string' ? { objectKind: kind } : {}),
    ...id,
    ...f,
  });
  if (typeof apiVersion !== 'string' || apiVersion === '')
    return E.left(fail({ path: 'apiVersion', message: 'is missing' }));
  if (typeof kind !== 'string' || kind === '') return E.left(fail({ path: 'kind', message: 'is missing' }));
  if (!isChainVersion(to)) {
    return E.left(
      fail({ message: `${String(to)} is not a version this converter knows (${CHAIN_VERSIONS.join(', ')})` }),
    );
  }
  const group = apiGroup(apiVersion);
  if (group !== V1ALPHA1_GROUP && group !== V1ALPHA2_GROUP) {
    return E.right({ object: value, generated: [], reports: [unchangedReport(value, kind)] });
  }
  if (!isChainVersion(apiVersion)) {
    return E.left(
      fail({
        path: 'apiVersion',
        message: `${apiVersion} is not a version this converter knows (${CHAIN_VERSIONS.join(', ')})`,
      }),
    );
  }
  if (OLD_PAIR.includes(apiVersion) && OLD_PAIR.includes(to)) {
    return convertObject(value, to as typeof V1ALPHA1 | typeof V1ALPHA2, options);
  }
  if (apiVersion === to)
    return E.right({ object: value, generated: [], reports: [unchangedReport(value, kind)] });

  const listOf = kind.endsWith('List') ? kind.slice(0, -'List'.length) : undefined;
  if (listOf !== undefined && isChainKind(listOf)) {
    const items = value.items;
    if (items !== undefined && items !== null && !Array.isArray(items)) {
      return E.left(fail({ path: 'items', message: 'must be a list' }));
    }
    const converted: JsonObject[] = [];
    const results: ObjectConversion[] = [];
    for (const [i, item] of (items ?? []).entries()) {
      const at = `items[${i}]`;
      if (!isObject(item)) return E.left(fail({ path: at, message: 'is not an object' }));
      if (item.kind !== undefined && item.kind !== listOf) {
        return E.left(fail({ path: `${at}.kind`, message: `is ${JSON.stringify(item.kind)} in a ${kind}` }));
      }
      if (item.apiVersion !== undefined && item.apiVersion !== apiVersion) {
        return E.left(
          fail({
            path: `${at}.apiVersion`,
            message: `mixed versions: the item is ${JSON.stringify(item.apiVersion)} but its ${kind} is ${apiVersion}`,
          }),
        );
      }
      const result = convertAlongChain(item, listOf, apiVersion, to, options);
      if (E.isLeft(result)) {
        return E.left({
          code: result.left.code ?? 'invalid-object',
          objectKind: listOf,
          ...identity(item),
          path: result.left.path === undefined ? at : `${at}.${result.left.path}`,
          message: result.left.message,
        });
      }
      converted.push(result.right.object);
      results.push(result.right);
    }
    const list = clone(value);
    list.apiVersion = to;
    if (items !== undefined) list.items = converted;
    return E.right({
      object: list,
      generated: results.flatMap((r) => r.generated),
      reports: [
        { ...unchangedReport(list, kind), action: 'converted', from: apiVersion, to },
        ...results.map((r) => r.report),
      ],
    });
  }
  if (kind === 'MachineClass') {
    return E.left(
      fail({
        message:
          'MachineClass has no later kind; convert it together with the objects that use it (a whole manifest)',
      }),
    );
  }
  if (!isChainKind(kind))
    return E.left(fail({ path: 'kind', message: `unknown ${apiVersion} kind ${JSON.stringify(kind)}` }));
  const result = convertAlongChain(value, kind, apiVersion, to, options);
  if (E.isLeft(result)) return E.left(fail(result.left));
  return E.right({
    object: result.right.object,
    generated: result.right.generated,
    reports: [result.right.report],
  });
}
