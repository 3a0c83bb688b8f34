import * as E from 'fp-ts/lib/Either.js';
import { type ConvertOptions, checkShape, convertKind, convertObject } from '../convert.js';
import type { ConversionError, ConversionFailure } from '../errors.js';
import type { AppliedMove } from '../moves.js';
import {
  conversionInput,
  convertListOrObject,
  convertV1List,
  type DocumentConversion,
  identity,
  type ObjectConversion,
  single,
  unchanged,
} from '../object-conversion.js';
import { clone, type JsonObject } from '../path.js';
import type { ObjectReport } from '../report.js';
import { checkStashedAnnotations } from '../stash-rules.js';
import { tooDeepOrRethrow } from '../too-deep.js';
import { apiGroup, type Direction, V1ALPHA1, V1ALPHA1_GROUP, V1ALPHA2, V1ALPHA2_GROUP } from '../versions.js';
import { convertHop, type Hop, type HopOptions } from './hop.js';
import { TABLE_HOPS } from './hops/index.js';
import { joinStack, NOTHING_BURIED, splitPending } from './stack.js';
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
): E.Either<ConversionFailure, ObjectConversion> {
  for (const version of [from, to]) {
    if (!kindExistsIn(kind, version)) {
      return E.left({
        path: 'kind',
        message: `${kind} exists only from ${KIND_SINCE[kind]} on; ${version} has no such kind`,
      });
    }
  }
  // What the first hop's own check refuses, every hop refuses: a YAML `name: yes` or a label
  // `on: true` carried along as a boolean would silently change the object's identity.
  const shape = checkShape(input);
  if (shape !== undefined) return E.left(shape);
  // The object as the last hop left it, and the stack still to go under its stash: joined
  // (and written into the annotation) once, after the last hop.
  let object = input;
  let pending = NOTHING_BURIED;
  const moves: AppliedMove[] = [];
  const stashed: string[] = [];
  const restored: string[] = [];
  const keptEdits: string[] = [];
  const warnings: string[] = [];
  let generated: readonly JsonObject[] = [];
  let generatedNames: readonly string[] = [];
  let at: ChainVersion = from;
  for (const step of chainPath(from, to)) {
    const split = splitPending(object, pending, at, step.to);
    at = step.to;
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
    object = out;
    pending = buried;
  }
  if (pending.text !== undefined) {
    // Each hop held its own stash to the annotation limit; the stack under it joins only now.
    object = joinStack(object, pending);
    const size = checkStashedAnnotations(object);
    if (E.isLeft(size)) return size;
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
  try {
    return convertCheckedTo(value, to, options);
  } catch (error) {
    return tooDeepOrRethrow(value, error);
  }
}

function convertCheckedTo(
  value: unknown,
  to: ChainVersion,
  options: ChainOptions,
): E.Either<ConversionError, DocumentConversion> {
  const checked = conversionInput(value);
  if (E.isLeft(checked)) return checked;
  const input = checked.right;
  const { object, apiVersion, kind, fail } = input;
  if (!isChainVersion(to)) {
    return E.left(
      fail({ message: `${String(to)} is not a version this converter knows (${CHAIN_VERSIONS.join(', ')})` }),
    );
  }
  if (apiVersion === 'v1' && kind === 'List')
    return convertV1List(input, (item) => convertCheckedTo(item, to, options));
  const group = apiGroup(apiVersion);
  if (group !== V1ALPHA1_GROUP && group !== V1ALPHA2_GROUP) {
    return E.right(single(unchanged(object, kind)));
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
    return convertObject(object, to as typeof V1ALPHA1 | typeof V1ALPHA2, options);
  }
  if (apiVersion === to) return E.right(single(unchanged(object, kind)));

  return convertListOrObject(input, to, {
    isKind: isChainKind,
    convert: (item, itemKind) => convertAlongChain(item, itemKind, apiVersion, to, options),
    from: apiVersion,
    machineClassTarget: 'later',
  });
}
