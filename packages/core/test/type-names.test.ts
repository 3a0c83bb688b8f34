import { describe, expect, it } from 'vitest';
import { jsonTypeName, yamlTypeName } from '../src/objects/index.js';

// Messages about untrusted values name their type, never the value (it may be huge or deep).
describe('type names', () => {
  it.each([
    [[], 'a list', 'a list'],
    [{}, 'a map', 'a mapping'],
    [null, 'null', 'null'],
    ['x', 'a string', 'a string'],
    [0, 'a number', 'a number'],
    [false, 'a boolean', 'a boolean'],
  ])('%j is %s in JSON and %s in YAML', (value, json, yaml) => {
    expect(jsonTypeName(value)).toBe(json);
    expect(yamlTypeName(value)).toBe(yaml);
  });
});
