/**
 * Date and timestamp parameters (`listed_after`, `updated_after`): a calendar date
 * (`2026-11-01`, midnight UTC) or an RFC 3339 timestamp with `Z` or a UTC offset
 * (`2026-11-01T08:30:00+01:00`). Checked as a real instant: the day exists in its month,
 * the time of day and the offset are in range (offsets in use run from -12:00 to
 * +14:00), and the year lies between 1970 and 2100. Anything else is refused with the
 * reason, never handed to the database.
 */

export const INSTANT_MIN_YEAR = 1970;
export const INSTANT_MAX_YEAR = 2100;
const OFFSET_MIN_MINUTES = -12 * 60;
const OFFSET_MAX_MINUTES = 14 * 60;

/** The grammar (for the OpenAPI `pattern`); the ranges are checked by `parseInstant`. */
export const INSTANT_PATTERN = '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?(Z|[+-]\\d{2}:\\d{2}))?$';

const SHAPE = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:(Z)|([+-])(\d{2}):(\d{2})))?$/;

export const INSTANT_FORMAT_MESSAGE =
  'must be a date (2026-11-01) or a timestamp with Z or a UTC offset (2026-11-01T08:30:00Z, 2026-11-01T08:30:00+01:00)';

export type ParsedInstant = { ok: true; date: Date } | { ok: false; message: string };

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export function parseInstant(value: string): ParsedInstant {
  const m = SHAPE.exec(value);
  if (!m) return { ok: false, message: INSTANT_FORMAT_MESSAGE };
  const [, y, mo, d, hh, mm, ss, fraction, zulu, sign, oh, om] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (year < INSTANT_MIN_YEAR || year > INSTANT_MAX_YEAR) {
    return { ok: false, message: `year ${y} is out of range (${INSTANT_MIN_YEAR} to ${INSTANT_MAX_YEAR})` };
  }
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    return { ok: false, message: `${y}-${mo}-${d} is not a calendar date` };
  }
  if (hh === undefined) return { ok: true, date: new Date(Date.UTC(year, month - 1, day)) };

  const hour = Number(hh);
  const minute = Number(mm);
  const second = Number(ss);
  if (hour > 23 || minute > 59 || second > 59) return { ok: false, message: `${hh}:${mm}:${ss} is not a time of day` };
  let offsetMinutes = 0;
  if (!zulu) {
    const offsetHour = Number(oh);
    const offsetMinute = Number(om);
    offsetMinutes = (sign === '-' ? -1 : 1) * (offsetHour * 60 + offsetMinute);
    if (offsetMinute > 59 || offsetMinutes < OFFSET_MIN_MINUTES || offsetMinutes > OFFSET_MAX_MINUTES) {
      return { ok: false, message: `${sign}${oh}:${om} is not a UTC offset (from -12:00 to +14:00)` };
    }
  }
  // Milliseconds are what the database keeps; finer digits are dropped, not rounded.
  const millis = fraction ? Number(fraction.slice(0, 3).padEnd(3, '0')) : 0;
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, millis) - offsetMinutes * 60_000;
  return { ok: true, date: new Date(utc) };
}
