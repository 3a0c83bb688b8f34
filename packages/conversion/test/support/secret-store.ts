import type { JsonObject, SecretData } from '../../src/index.js';

/**
 * The Secrets conversions up made, for the way down to read private keys (key-pairs.ts) and
 * credentials (secret-fields.ts) from, as a manifest holding them would give them. A later Secret of the
 * same name replaces an earlier one: a round trip reads the Secrets of its own way up.
 */
export function secretStore(): { secretData: SecretData; keep: (generated: readonly JsonObject[]) => void } {
  const secrets = new Map<string, JsonObject>();
  const key = (namespace: string | undefined, name: string) => `${namespace ?? ''}/${name}`;
  return {
    secretData: (namespace, name) => secrets.get(key(namespace, name)),
    keep: (generated) => {
      for (const o of generated) {
        const metadata = o.metadata as { name: string; namespace?: string };
        if (o.kind === 'Secret') secrets.set(key(metadata.namespace, metadata.name), o.data as JsonObject);
      }
    },
  };
}

/** The `secretData` of the Secrets one conversion generated, as a manifest holding them gives. */
export function secretDataOf(generated: readonly JsonObject[]): SecretData {
  const store = secretStore();
  store.keep(generated);
  return store.secretData;
}
