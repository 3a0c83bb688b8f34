import type { Agent } from 'node:https';
import { restRequest } from '@capi-kit/envtest';
import type { KubeConfig } from '@kubernetes/client-node';
import * as E from 'fp-ts/lib/Either.js';
import { decodeWith, defaultRegistry } from '../../../src/index.js';
import { type KindOracle, type RefinementRule, refinementsCovering } from './crd-oracle.js';
import type { JsonSchema } from './kubernetes-schemas.js';
import type { Case, Path } from './mutations.js';

// The codecs against a real kube-apiserver, shared by the test files of every version
// (crd-server.integration.test.ts, crd-server-later.integration.test.ts). Each generated case
// (a valid object or one mutation of it) is sent as a server-side dry-run create, lenient
// (fieldValidation=Ignore: unknown fields are pruned) and strict (fieldValidation=Strict:
// unknown fields are errors). With a status subresource the server ignores `status` on
// create, so when the create is accepted and the object has a status, the status is also
// sent as a dry-run status update of a stored object. The server's verdict must equal the
// codec's; where it does not, the difference is excused only by `explainDivergence`.

export type Verdict = { accepted: true } | { accepted: false; status: number; message: string };

/** Why a codec verdict may differ from the server's: a refinement of the CRD, or a pruned null. */
export type ServerDivergence = RefinementRule | 'server-prunes-null' | 'status-update-time';

/** A dry-run request's verdict: 2xx accepted; 400 and 422 rejected; anything else is an error. */
async function answer(
  served: ServedKind,
  method: 'POST' | 'PUT',
  path: string,
  body: unknown,
): Promise<Verdict> {
  const res = await restRequest(served.kubeConfig, method, path, body, { agent: served.agent });
  if (res.status >= 200 && res.status < 300) return { accepted: true };
  const message = JSON.stringify(res.body).slice(0, 400);
  if (res.status === 400 || res.status === 422) return { accepted: false, status: res.status, message };
  throw new Error(`${method} ${path}: HTTP ${res.status}: ${message}`);
}

/** Where one kind of one version is served, and the stored object that receives status updates. */
export interface ServedKind {
  readonly kubeConfig: KubeConfig;
  /** A keep-alive agent (envtest's keepAliveAgent): one TLS connection per request in flight, not per request. */
  readonly agent?: Agent;
  /** `/apis/<group>/<version>/namespaces/<ns>/<plural>` */
  readonly collection: string;
  readonly namespace: string;
  readonly hasStatus: boolean;
  /** name and resourceVersion of the stored object (required when hasStatus). */
  readonly base?: { readonly name: string; readonly resourceVersion: string };
}

/** The server's verdict on `value` under one field validation: create, then status update. */
export async function serverVerdict(
  served: ServedKind,
  value: Record<string, unknown>,
  fieldValidation: 'Ignore' | 'Strict',
): Promise<Verdict> {
  const query = `?dryRun=All&fieldValidation=${fieldValidation}`;
  const created = await answer(served, 'POST', `${served.collection}${query}`, value);
  if (!created.accepted || !served.hasStatus || value.status === undefined) return created;
  const base = served.base;
  if (base === undefined) throw new Error(`${served.collection}: a status update needs a stored object`);
  const metadata = { name: base.name, namespace: served.namespace, resourceVersion: base.resourceVersion };
  return answer(served, 'PUT', `${served.collection}/${base.name}/status${query}`, { ...value, metadata });
}

function valueAt(value: unknown, path: Path): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string | number, unknown>)?.[key], value);
}

/** The schema node at a value path (array indexes go to `items`, map keys to `additionalProperties`). */
function schemaAt(schema: JsonSchema, path: Path): JsonSchema | undefined {
  let node: JsonSchema | undefined = schema;
  for (const key of path) {
    if (node === undefined) return undefined;
    if (typeof key === 'number') node = node.items as JsonSchema | undefined;
    else {
      const properties = node.properties as Record<string, JsonSchema> | undefined;
      const additional = node.additionalProperties;
      node =
        properties !== undefined && Object.hasOwn(properties, key)
          ? properties[key]
          : typeof additional === 'object' && additional !== null
            ? (additional as JsonSchema)
            : undefined;
    }
  }
  return node;
}

/**
 * Whether `value` holds a field that `schema` does not declare: one the server prunes
 * leniently and reports strictly. Below `x-kubernetes-preserve-unknown-fields` every field
 * is kept; a map (`additionalProperties`) declares every key.
 */
export function hasUndeclaredField(schema: JsonSchema, value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) {
    const items = schema.items as JsonSchema | undefined;
    return items !== undefined && value.some((item) => hasUndeclaredField(items, item));
  }
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  const additional = schema.additionalProperties;
  return Object.entries(value).some(([key, child]) => {
    if (properties !== undefined && Object.hasOwn(properties, key)) {
      return hasUndeclaredField(properties[key]!, child);
    }
    if (typeof additional === 'object' && additional !== null) {
      return hasUndeclaredField(additional as JsonSchema, child);
    }
    return schema['x-kubernetes-preserve-unknown-fields'] !== true;
  });
}

function withoutField(value: Record<string, unknown>, path: Path): Record<string, unknown> {
  const copy = structuredClone(value);
  const parent = valueAt(copy, path.slice(0, -1)) as Record<string, unknown>;
  delete parent[path[path.length - 1] as string];
  return copy;
}

export function codecAccepts(oracle: KindOracle, value: unknown, strict: boolean): boolean {
  const codec = defaultRegistry.lookup(oracle.apiVersion, oracle.kind);
  if (codec === undefined) throw new Error(`no codec for ${oracle.apiVersion} ${oracle.kind}`);
  return E.isRight(decodeWith(codec, value, { strict }));
}

/**
 * Why the codec's verdict on `c` may differ from the server's, or undefined when nothing
 * excuses it. An excuse never covers a codec bug:
 * - server-prunes-null: the mutation put `null` at an object field whose schema is not
 *   nullable; kube-apiserver drops such a null (the structural schemas of every version)
 *   instead of rejecting it, and accepted. The codec rejects the null, as the CRD schema
 *   does (Go never writes one there, and the decoded value would not be what the server
 *   stores) — and only the null: it accepts the same object without that field.
 * - status-update-time: the mutation put an array at a `format: date-time` field under
 *   `status`, and the server accepted it. Only a status update decides status (a create
 *   ignores it), and kube-apiserver v1.36.3 accepts — and stores — any array (`[]`, `[1]`) at
 *   a date-time field there, while it rejects a number, an object or a non-date string at the
 *   same field and an array at a plain string field (probed by hand, 2026-12-01). The codec
 *   keeps the CRD schema's verdict (reject) — and only for that field: it accepts the same
 *   object without it.
 * - a refinement (support/crd-oracle.ts) covering the mutated path, and the codec deciding
 *   exactly as the refined oracle (ajv on the CRD with the refinements) decides this case: a
 *   codec that departs from its documented design at that path is not excused.
 */
export function explainDivergence(
  oracle: KindOracle,
  c: Case,
  strict: boolean,
  codecVerdict: boolean,
  server: Verdict,
): ServerDivergence | undefined {
  const last = c.path[c.path.length - 1];
  if (
    server.accepted &&
    !codecVerdict &&
    typeof last === 'string' &&
    valueAt(c.value, c.path) === null &&
    schemaAt(oracle.referenceSchema, c.path)?.nullable !== true &&
    codecAccepts(oracle, withoutField(c.value, c.path), strict)
  ) {
    return 'server-prunes-null';
  }
  if (
    server.accepted &&
    !codecVerdict &&
    c.kind === 'wrong-type' &&
    c.path[0] === 'status' &&
    typeof last === 'string' &&
    Array.isArray(valueAt(c.value, c.path)) &&
    schemaAt(oracle.referenceSchema, c.path)?.format === 'date-time' &&
    codecAccepts(oracle, withoutField(c.value, c.path), strict)
  ) {
    return 'status-update-time';
  }
  const designed = (strict ? oracle.referenceClosed : oracle.reference)(c.value);
  if (codecVerdict !== designed) return undefined;
  const rules = refinementsCovering(oracle, c.path).filter((r) => strict || r.rule !== 'strict-unknown');
  return rules[0]?.rule;
}

/** Maps `items` through `work` with at most `concurrency` calls in flight; results in order. */
export async function mapConcurrently<T, R>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await work(items[i] as T);
      }
    }),
  );
  return results;
}

export interface ServerTally {
  /** Cases the server accepted under lenient field validation. */
  accepted: number;
  readonly divergences: Map<ServerDivergence, number>;
  /** Disagreements nothing excuses, described (the test expects none). */
  readonly undocumented: string[];
}

/** Every case against the server, strict and lenient, with `concurrency` cases in flight. */
export async function compareWithServer(
  oracle: KindOracle,
  served: ServedKind,
  sample: readonly Case[],
  concurrency: number,
): Promise<ServerTally> {
  const tally: ServerTally = { accepted: 0, divergences: new Map(), undocumented: [] };
  await mapConcurrently(sample, concurrency, async (c) => {
    // Strict field validation differs from lenient only in reporting unknown (and duplicate)
    // fields instead of pruning them. So a case the server accepts strictly, or one without a
    // field the schema does not declare, gets the same verdict leniently: it is sent once.
    const strictVerdict = await serverVerdict(served, c.value, 'Strict');
    const lenientVerdict =
      strictVerdict.accepted || !hasUndeclaredField(oracle.referenceSchema, c.value)
        ? strictVerdict
        : await serverVerdict(served, c.value, 'Ignore');
    for (const strict of [false, true]) {
      const server = strict ? strictVerdict : lenientVerdict;
      const mine = codecAccepts(oracle, c.value, strict);
      if (!strict && server.accepted) tally.accepted += 1;
      if (mine === server.accepted) continue;
      const excuse = explainDivergence(oracle, c, strict, mine, server);
      if (excuse === undefined) {
        tally.undocumented.push(
          JSON.stringify({ strict, mutation: c.kind, path: c.path, codec: mine, server, value: c.value }),
        );
      } else {
        tally.divergences.set(excuse, (tally.divergences.get(excuse) ?? 0) + 1);
      }
    }
  });
  return tally;
}
