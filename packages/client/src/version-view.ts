import {
  type ApiVersion,
  type ConvertOptions,
  convertObject,
  formatConversionError,
} from '@capi-kit/conversion';
import * as E from 'fp-ts/lib/Either.js';
import { decodeServed, identityOf, type Unreadable } from './decode-served.js';
import { type ClientError, describeRef, type ObjectRef } from './errors.js';
import type { ListOptions, ListResult, ResourceClient } from './resource-client.js';
import type { ResourceInfo } from './resources.js';

/**
 * A read-only view of one kind at one apiVersion (`as`), whatever versions the server
 * serves: objects stored at another version are converted on read by
 * `@capi-kit/conversion`, losslessly (what `as` cannot express rides in the conversion
 * stash annotation, so converting back gives the object as served). A tool written once
 * against v1alpha2 can so be pointed at a v1alpha1 management cluster.
 *
 * Provider objects a conversion would generate (v1alpha2 infrastructure and bootstrap
 * objects built from a v1alpha1 providerSpec) do not exist on the server and are not
 * returned; `spec.infrastructureRef` names them as the conversion would.
 */
export class VersionView<T> {
  readonly info: ResourceInfo;
  readonly #sources: readonly ResourceClient<unknown>[];
  readonly #conversion: ConvertOptions;

  /** `sources`: the served versions of the kind, the target version (if served) first. */
  constructor(info: ResourceInfo, sources: readonly ResourceClient<unknown>[], conversion: ConvertOptions) {
    this.info = info;
    this.#sources = sources;
    this.#conversion = conversion;
  }

  /** Converts (when stored at another version) and decodes one object as served. */
  read(raw: unknown, from: ResourceInfo): E.Either<Unreadable, T> {
    const { apiVersion, kind, codec } = this.info;
    if (from.apiVersion === apiVersion) return decodeServed<T>(codec, raw, apiVersion, kind);
    const converted = convertObject(raw, apiVersion as ApiVersion, this.#conversion);
    if (E.isLeft(converted)) {
      const target: ObjectRef = { apiVersion: from.apiVersion, kind: from.kind, ...identityOf(raw) };
      return E.left({
        code: 'conversion-failed',
        target,
        object: raw,
        ...(converted.left.path === undefined ? {} : { path: converted.left.path }),
        message: `${describeRef(target)} cannot be read as ${apiVersion}: ${formatConversionError(converted.left)}`,
      });
    }
    return decodeServed<T>(codec, converted.right.object, apiVersion, kind);
  }

  /** The object from the first served version that has it (the target version first). */
  async get(namespace: string, name: string): Promise<E.Either<ClientError, T>> {
    let notFound: ClientError | undefined;
    for (const source of this.#sources) {
      const raw = await source.getRaw(namespace, name);
      if (E.isLeft(raw)) {
        if (raw.left.code === 'not-found') {
          notFound ??= raw.left;
          continue;
        }
        return raw;
      }
      return this.read(raw.right, source.info);
    }
    return E.left(
      notFound ?? {
        code: 'not-served',
        target: { apiVersion: this.info.apiVersion, kind: this.info.kind, namespace, name },
        message: `the server serves no version of ${this.info.kind}`,
      },
    );
  }

  /**
   * Every object of every served version, as `as`. An object present at several versions
   * (mid-migration) is returned once, from the earliest source (the target version first);
   * the others are listed in `shadowed`.
   */
  async list(options: ListOptions = {}): Promise<E.Either<ClientError, ViewListResult<T>>> {
    const items: T[] = [];
    const invalid: Unreadable[] = [];
    const shadowed: ObjectRef[] = [];
    const seen = new Set<string>();
    const resourceVersions: Record<string, string> = {};
    for (const source of this.#sources) {
      const listed = await source.listRaw(options, (raw) => {
        const { namespace, name } = identityOf(raw);
        const key = `${namespace ?? ''}/${name ?? ''}`;
        if (seen.has(key)) {
          shadowed.push({
            apiVersion: source.info.apiVersion,
            kind: source.info.kind,
            ...identityOf(raw),
          });
          return;
        }
        seen.add(key);
        const read = this.read(raw, source.info);
        if (E.isRight(read)) items.push(read.right);
        else invalid.push(read.left);
      });
      if (E.isLeft(listed)) return listed;
      resourceVersions[source.info.apiVersion] = listed.right.resourceVersion;
    }
    return E.right({
      items,
      invalid,
      shadowed,
      resourceVersion: resourceVersions[this.info.apiVersion] ?? '',
      resourceVersions,
    });
  }
}

/** A view's list: as `ListResult`, plus objects hidden by a same-named object of an earlier source. */
export interface ViewListResult<T> extends ListResult<T> {
  readonly shadowed: ObjectRef[];
  /** The list resourceVersion of each source version. */
  readonly resourceVersions: Readonly<Record<string, string>>;
}
