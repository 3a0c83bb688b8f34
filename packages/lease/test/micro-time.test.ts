import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatMicroTime, parseMicroTime, toMicroTime } from '../src/micro-time.js';

describe('MicroTime', () => {
  it('writes exactly six fractional digits, as Go’s RFC3339Micro layout requires', () => {
    const date = new Date('2026-03-04T05:06:07.891Z');
    expect(formatMicroTime(date)).toBe('2026-03-04T05:06:07.891000Z');
    expect(JSON.stringify({ t: toMicroTime(date) })).toBe('{"t":"2026-03-04T05:06:07.891000Z"}');
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2000-01-01Z'), max: new Date('2200-01-01Z'), noInvalidDate: true }),
        (d) => {
          expect(formatMicroTime(d)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
          expect(parseMicroTime(formatMicroTime(d))?.getTime()).toBe(d.getTime());
        },
      ),
    );
  });

  it('reads Go-written times (microseconds, offsets, no fraction) and Dates', () => {
    expect(parseMicroTime('2026-03-04T05:06:07.123456Z')?.toISOString()).toBe('2026-03-04T05:06:07.123Z');
    expect(parseMicroTime('2026-03-04T05:06:07Z')?.toISOString()).toBe('2026-03-04T05:06:07.000Z');
    expect(parseMicroTime('2026-03-04T07:06:07.5+02:00')?.toISOString()).toBe('2026-03-04T05:06:07.500Z');
    expect(parseMicroTime(new Date(5))?.getTime()).toBe(5);
  });

  it('gives undefined for anything that is not a time', () => {
    for (const value of [
      undefined,
      null,
      42,
      '',
      'yesterday',
      '2026-13-45T99:00:00Z',
      new Date(Number.NaN),
    ]) {
      expect(parseMicroTime(value)).toBeUndefined();
    }
  });

  it('gives undefined for a date or clock Go’s time.Parse refuses, where Date rolls over', () => {
    // (they came back as 2026-03-03, 2025-03-01 and the next day)
    for (const value of [
      '2026-02-31T00:00:00.000000Z',
      '2025-02-29T00:00:00Z',
      '2026-01-01T24:00:00Z',
      '2026-04-31T00:00:00Z',
      '2026-01-00T00:00:00Z',
      '2026-01-01T00:60:00Z',
      '2026-01-01T00:00:60Z',
    ]) {
      expect(parseMicroTime(value), value).toBeUndefined();
    }
    expect(parseMicroTime('2024-02-29T23:59:59Z')?.toISOString()).toBe('2024-02-29T23:59:59.000Z');
    expect(parseMicroTime('2000-02-29T00:00:00Z')).toBeDefined();
    expect(parseMicroTime('1900-02-29T00:00:00Z')).toBeUndefined();
  });
});
