const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

/** 0000-01-01T00:00:00.000Z and 10000-01-01T00:00:00.000Z: outside them toISOString writes a six-digit signed year. */
const FIRST_MS = -62_167_219_200_000;
const END_MS = 253_402_300_800_000;

const TWO_DIGITS = Array.from({ length: 100 }, (_, n) => String(n).padStart(2, "0"));
const THREE_DIGITS = Array.from({ length: 1000 }, (_, n) => String(n).padStart(3, "0"));

/** "YYYY-MM-DDT" of a day counted from 1970-01-01 (proleptic Gregorian; H. Hinnant's civil_from_days). */
function datePrefix(days: number): string {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shiftedMonth = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * shiftedMonth + 2) / 5) + 1;
  const month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return `${year < 1000 ? String(year).padStart(4, "0") : year}-${TWO_DIGITS[month]}-${TWO_DIGITS[day]}T`;
}

/**
 * The RFC 3339 text of an instant given in epoch milliseconds, exactly as `Date.prototype.toISOString` writes it
 * ("2026-03-01T09:30:00.000Z"), by integer arithmetic. toISOString is a call into V8's C++ runtime, and the wire
 * writes every instant it answers through here: a listing page writes about a thousand, where this takes half the
 * time (issue 36; docs/PERFORMANCE.md). What toISOString answers otherwise (a fraction of a millisecond, a year
 * outside 0000–9999, an invalid time) it still answers, or throws.
 */
export function isoTimestamp(ms: number): string {
  if (!(ms >= FIRST_MS && ms < END_MS) || !Number.isInteger(ms)) return new Date(ms).toISOString();
  const days = Math.floor(ms / DAY_MS);
  let rest = ms - days * DAY_MS;
  const hours = Math.floor(rest / HOUR_MS);
  rest -= hours * HOUR_MS;
  const minutes = Math.floor(rest / MINUTE_MS);
  rest -= minutes * MINUTE_MS;
  const seconds = Math.floor(rest / 1000);
  return `${datePrefix(days)}${TWO_DIGITS[hours]}:${TWO_DIGITS[minutes]}:${TWO_DIGITS[seconds]}.${THREE_DIGITS[rest - seconds * 1000]}Z`;
}
