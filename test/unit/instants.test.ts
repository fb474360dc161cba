/** Date and timestamp parameters: real calendar instants, valid offsets, a sane range. */
import { describe, expect, it } from 'vitest';
import { parseInstant } from '../../contract/instants.js';

describe('parseInstant', () => {
  it.each([
    ['2026-01-01', '2026-01-01T00:00:00.000Z'],
    ['2024-02-29', '2024-02-29T00:00:00.000Z'],
    ['2026-01-01T00:00:00Z', '2026-01-01T00:00:00.000Z'],
    ['2026-01-01T08:30:00+01:00', '2026-01-01T07:30:00.000Z'],
    ['2026-01-01T00:00:00-12:00', '2026-01-01T12:00:00.000Z'],
    ['2026-01-01T00:00:00+14:00', '2025-12-31T10:00:00.000Z'],
    ['2026-01-01T00:00:00+05:45', '2025-12-31T18:15:00.000Z'],
    ['2026-01-01T00:00:00.123456789Z', '2026-01-01T00:00:00.123Z'],
    ['1970-01-01', '1970-01-01T00:00:00.000Z'],
    ['2100-12-31T23:59:59Z', '2100-12-31T23:59:59.000Z'],
  ])('%s is %s', (value, iso) => {
    const parsed = parseInstant(value);
    expect(parsed.ok && parsed.date.toISOString()).toBe(iso);
  });

  it.each([
    ['2026-01-01T00:00:00+99:99', /UTC offset/],
    ['2026-01-01T00:00:00+24:00', /UTC offset/],
    ['2026-01-01T00:00:00+00:60', /UTC offset/],
    ['2026-01-01T00:00:00-23:60', /UTC offset/],
    ['2026-01-01T00:00:00+9999', /must be a date/],
    ['2026-01-01T00:00:00-12:30', /UTC offset/],
    ['2026-01-01T00:00:00+14:01', /UTC offset/],
    ['0000-01-01', /year 0000/],
    ['1969-12-31', /year 1969/],
    ['2101-01-01', /year 2101/],
    ['9999-12-31T23:59:59Z', /year 9999/],
    ['2026-02-29', /not a calendar date/],
    ['2026-02-30', /not a calendar date/],
    ['2026-04-31', /not a calendar date/],
    ['2026-13-01', /not a calendar date/],
    ['2026-00-10', /not a calendar date/],
    ['2026-01-00', /not a calendar date/],
    ['2026-01-01T24:00:00Z', /time of day/],
    ['2026-01-01T23:60:00Z', /time of day/],
    ['2026-01-01T23:59:60Z', /time of day/],
    ['2026-01-01T00:00:00', /must be a date/],
    ['2026-01-01T00:00Z', /must be a date/],
    ['2026-01-01 00:00:00Z', /must be a date/],
    ['2026-01-01t00:00:00z', /must be a date/],
    ['2026-1-1', /must be a date/],
    ['+02026-01-01', /must be a date/],
    ['20260101', /must be a date/],
    ['yesterday', /must be a date/],
    ['', /must be a date/],
    ['2026-01-01T00:00:00.Z', /must be a date/],
    ['2026-01-01T00:00:00.1234567890Z', /must be a date/],
  ])('%s is refused (%s)', (value, reason) => {
    const parsed = parseInstant(value);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.message).toMatch(reason);
  });
});
