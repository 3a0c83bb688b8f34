import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { type DecodeError, decode, type SchemaError } from '../src/index.js';
import { type ManifestError, readManifest } from '../src/manifest/index.js';

// Every capi-kit error is tagged `code` (docs/architecture.md, "Errors and results"). These
// tests pin core's tags: renaming one back (`reason`, `issue`) or dropping it fails here.

function decodeError(value: unknown, strict = false): DecodeError {
  const result = decode(value, { strict });
  if (E.isRight(result)) throw new Error('expected decode to fail');
  return result.left;
}

function schemaErrors(value: unknown, strict = false): readonly SchemaError[] {
  const error = decodeError(value, strict);
  if (error.code !== 'invalid') throw new Error(`expected an invalid object, got ${error.code}`);
  return error.errors;
}

function manifestErrors(text: string): ManifestError[] {
  const result = readManifest(text);
  if (E.isRight(result)) throw new Error('expected readManifest to fail');
  return result.left;
}

const machineV1beta1 = {
  apiVersion: 'cluster.x-k8s.io/v1beta1',
  kind: 'Machine',
  metadata: { name: 'm', namespace: 'default' },
  spec: { clusterName: 'c', bootstrap: { dataSecretName: 's' }, infrastructureRef: { kind: 'X', name: 'x' } },
};

describe('DecodeError is tagged code', () => {
  it('not-an-object, with a message and no other tag', () => {
    expect(decodeError([1])).toEqual({ code: 'not-an-object', message: expect.any(String) });
    expect(decodeError('text')).not.toHaveProperty('reason');
  });

  it('unknown-kind, with the missing type-meta field as its path', () => {
    expect(decodeError({ apiVersion: 'v1', kind: 'Secret' })).toEqual({
      code: 'unknown-kind',
      apiVersion: 'v1',
      kind: 'Secret',
      message: 'unknown kind Secret in v1',
    });
    expect(decodeError({ kind: 'Machine' })).toMatchObject({ code: 'unknown-kind', path: 'apiVersion' });
    expect(decodeError({ apiVersion: 'cluster.x-k8s.io/v1beta1' })).toMatchObject({
      code: 'unknown-kind',
      path: 'kind',
    });
  });

  it('invalid-type-meta, naming the field that is set but not a string', () => {
    expect(decodeError({ apiVersion: 5, kind: 'Machine' })).toEqual({
      code: 'invalid-type-meta',
      path: 'apiVersion',
      message: 'apiVersion: must be a string, not a number',
    });
    expect(decodeError({ apiVersion: 'cluster.x-k8s.io/v1beta1', kind: ['Machine'] })).toMatchObject({
      code: 'invalid-type-meta',
      path: 'kind',
      message: 'kind: must be a string, not a list',
    });
    // null reads as absent, as in Go: the document is of no kind, not a mistyped one
    expect(decodeError({ apiVersion: null, kind: 'Machine' })).toMatchObject({
      code: 'unknown-kind',
      path: 'apiVersion',
    });
  });

  it('invalid, with every SchemaError', () => {
    const error = decodeError({ ...machineV1beta1, spec: { ...machineV1beta1.spec, clusterName: 1 } });
    expect(error).toMatchObject({ code: 'invalid', apiVersion: machineV1beta1.apiVersion, kind: 'Machine' });
    expect(error).not.toHaveProperty('reason');
  });
});

describe('SchemaError is tagged code', () => {
  it.each<[string, unknown, boolean, Pick<SchemaError, 'code' | 'path'>]>([
    [
      'type',
      { ...machineV1beta1, spec: { ...machineV1beta1.spec, clusterName: 1 } },
      false,
      { code: 'type', path: 'spec.clusterName' },
    ],
    [
      'missing',
      { ...machineV1beta1, spec: { ...machineV1beta1.spec, clusterName: undefined } },
      false,
      { code: 'missing', path: 'spec.clusterName' },
    ],
    ['unknown (strict)', { ...machineV1beta1, colour: 'blue' }, true, { code: 'unknown', path: 'colour' }],
    [
      'duplicate',
      {
        ...machineV1beta1,
        spec: { ...machineV1beta1.spec, readinessGates: [{ conditionType: 'A' }, { conditionType: 'A' }] },
      },
      false,
      { code: 'duplicate', path: 'spec.readinessGates[1]' },
    ],
    [
      'too-few-fields',
      {
        apiVersion: 'cluster.x-k8s.io/v1beta2',
        kind: 'MachineHealthCheck',
        metadata: { name: 'h' },
        spec: { clusterName: 'c', selector: {} },
        status: {},
      },
      false,
      { code: 'too-few-fields', path: 'status' },
    ],
  ])('%s', (_name, value, strict, expected) => {
    const errors = schemaErrors(value, strict);
    expect(errors).toEqual([
      expect.objectContaining({ ...expected, message: expect.stringContaining(expected.path) }),
    ]);
    expect(errors[0]).not.toHaveProperty('issue');
  });
});

describe('ManifestError is tagged code', () => {
  const aliasBomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
  for (let i = 1; i < 10; i++) {
    const name = String.fromCharCode(97 + i);
    aliasBomb.push(
      `${name}: &${name} [${Array(10)
        .fill(`*${String.fromCharCode(96 + i)}`)
        .join(', ')}]`,
    );
  }
  it.each<[ManifestError['code'], string]>([
    ['yaml-syntax', 'b: [1\n'],
    ['too-deep', `${'['.repeat(100_000)}${']'.repeat(100_000)}`],
    ['too-deep', `${'['.repeat(300)}${']'.repeat(300)}`],
    ['too-many-aliases', aliasBomb.join('\n')],
    ['duplicate-key', 'a: 1\na: 2\n'],
    ['not-json', 'a: !!binary aGVsbG8=\n'],
    ['not-json', 'a: .nan\n'],
    ['not-json', 'generation: 12345678901234567890\n'],
    ['not-json', '? [a]\n: 1\n'],
  ])('%s (%#)', (code, text) => {
    const [error, ...rest] = manifestErrors(text);
    expect(rest).toEqual([]);
    expect(error).toMatchObject({ code, index: 0, message: expect.any(String) });
    expect(error).not.toHaveProperty('path');
  });

  it('unsafe-text, with the path of the name, label or annotation', () => {
    const [error] = manifestErrors('apiVersion: v1\nkind: ConfigMap\nmetadata: {labels: {app: "a\\eb"}}\n');
    expect(error).toMatchObject({ code: 'unsafe-text', path: 'metadata.labels.app', line: 3, column: 26 });
    expect(error!.message).toMatch(/^metadata\.labels\.app: /);
  });
});
