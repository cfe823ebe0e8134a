import { z } from "@hono/zod-openapi";
import { FIRST_YEAR, isCalendarDate, isDateOrInstant, LAST_YEAR, parseTimestamp } from "@/domain/local-time";
import { isClockTime } from "@/domain/pay-rules";
import { TRUST_FLAGS } from "@/domain/trust";
import { isValidTimeZone } from "./time";

// Built on first use: loading Intl's region names takes ≈ 20 ms of CPU that every cold isolate would pay otherwise, and
// every feature evaluates this module on its first request, most without checking a country or a currency.
let regionNames: Intl.DisplayNames | undefined;
const regionName = (code: string) => {
  regionNames ??= new Intl.DisplayNames(["en"], { type: "region" });
  return regionNames.of(code);
};
let currencies: Set<string> | undefined;
const isCurrency = (code: string) => {
  currencies ??= new Set(Intl.supportedValuesOf("currency"));
  return currencies.has(code);
};

/** ISO 3166-1 alpha-2: Intl knows every assigned code and echoes unknown ones back unchanged. */
export const CountryCode = z
  .string()
  // abort: Intl.DisplayNames#of throws on text that is not a region subtag, which would be a 500.
  .regex(/^[A-Z]{2}$/, { message: "must be an ISO 3166-1 alpha-2 code in upper case", abort: true })
  .refine((code) => regionName(code) !== code, "is not an assigned ISO 3166-1 alpha-2 code")
  .openapi({ example: "US" });

export const CurrencyCode = z
  .string()
  .regex(/^[A-Z]{3}$/, "must be an ISO 4217 code in upper case")
  .refine(isCurrency, "is not an ISO 4217 currency code")
  .openapi({ example: "USD" });

export const TimeZone = z
  .string()
  .min(1)
  .max(64)
  .refine(isValidTimeZone, "is not an IANA time zone")
  .openapi({ example: "America/New_York", description: "IANA time zone" });

/**
 * `.` or `..`, or either written with `%2e`: URL parsers resolve such a path segment away (`…/locations/..` becomes
 * `…/`), so an id of that form would send a client's request to another resource.
 */
export const isDotSegment = (text: string) => /^(?:\.|%2e){1,2}$/i.test(text);

export const DOT_SEGMENT_MESSAGE = "must not be '.' or '..' (or either percent-encoded): URL parsers resolve it away";

export const ExternalId = z
  .string()
  .min(1)
  .max(255)
  .refine((text) => !isDotSegment(text), DOT_SEGMENT_MESSAGE)
  .openapi({
    example: "ext-1001",
    description:
      "The integrator's own id, 1 to 255 characters; never `.` or `..` (or either written with `%2e`), which URL " +
      "parsers resolve away as a path segment (README, Ids in paths).",
  });

export const Name = z.string().trim().min(1).max(200);

export const Email = z.email().max(320).openapi({ example: "ada@example.com" });

export const PhoneNumber = z
  .string()
  .regex(/^\+?[0-9][0-9 ().-]{5,24}$/, "must be a phone number such as +1 555 010 0199")
  .openapi({ example: "+15550100199" });

export const Timestamp = z.string().openapi({ format: "date-time", example: "2026-01-15T09:30:00.000Z" });

/*
 * The dates and timestamps requests may carry. Every one names a real calendar date from FIRST_YEAR to LAST_YEAR and
 * a real time of day: anything else (year 9999 or 0, 2025-02-30T10:00:00Z) is a 400 naming the field.
 */
const YEARS = `from ${FIRST_YEAR} to ${LAST_YEAR}`;

/** A YYYY-MM-DD date. */
export const CalendarDate = z
  .string()
  .refine(isCalendarDate, `must be a calendar date YYYY-MM-DD ${YEARS}`)
  .openapi({ format: "date", example: "2026-03-14" });

/** A local time of day, HH:MM from 00:00 to 23:59 (a workday's start). */
export const ClockTime = z
  .string()
  .refine(isClockTime, "must be a local time HH:MM from 00:00 to 23:59")
  .openapi({ pattern: "^([01]\\d|2[0-3]):[0-5]\\d$", example: "04:00" });

/** An RFC 3339 instant, with `Z` or an offset of at most 14 h. */
export const Instant = z
  .string()
  .refine((value) => parseTimestamp(value) !== null, `must be an RFC 3339 date-time ${YEARS} (Z or an offset up to ±14:00)`)
  .openapi({ format: "date-time", example: "2026-03-14T09:00:00-04:00" });

/** A local wall-clock time written with `Z` (the stated contract's startTime/endTime on the way in). */
export const WallClockInput = z
  .string()
  .refine((value) => parseTimestamp(value, false) !== null, `must be a date-time written with Z, ${YEARS}`)
  .openapi({ format: "date-time", example: "2026-03-14T09:00:00Z" });

/** A range query bound: a local date (a whole business day) or an instant. */
export const DateOrInstant = (description: string, example: string) =>
  z.string().max(40).refine(isDateOrInstant, `must be YYYY-MM-DD or an RFC 3339 date-time, ${YEARS}`).openapi({ description, example });

export const TimestampOrNull = Timestamp.nullable().openapi({ format: "date-time", example: null });

const WALL_CLOCK_NOTE =
  "Local wall-clock time at the location written with a `Z` suffix: not UTC (the stated contract). " +
  "utcStartTime = startTime − utcOffset minutes.";

/** A `startTime`/`endTime` on the wire: local wall-clock with Z. */
export const WallClockTime = (what: string) =>
  Timestamp.openapi({ description: `${what}. ${WALL_CLOCK_NOTE}`, example: "2026-01-15T09:30:00.000Z" });

export const WallClockTimeOrNull = (what: string) => TimestampOrNull.openapi({ description: `${what}. ${WALL_CLOCK_NOTE}` });

export const UtcTime = (what: string) => Timestamp.openapi({ description: `${what}: the instant, in UTC.` });

export const UtcTimeOrNull = (what: string) => TimestampOrNull.openapi({ description: `${what}: the instant, in UTC.` });

export const TrustFlag = z.enum(TRUST_FLAGS).openapi("TrustFlag", {
  description:
    "MOCK_LOCATION: the client says the position is mocked. IP_FAR: over 500 km from the request's network location. " +
    "IMPOSSIBLE_TRAVEL: over 300 km/h from the previous event. OUTSIDE_GEOFENCE / UNDETERMINED_GEOFENCE: the fence verdict.",
});

/** Fields every record answers with. */
export const recordLifecycle = {
  active: z.boolean().openapi({ example: true }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  deletedAt: TimestampOrNull,
};

/**
 * Minutes east of UTC: a number, or an integer string as API.md allows ("-240"); null reads as omitted. Anything
 * else (true, "", "1.5", "-4h") is a 400 naming the field, never coerced to 0 or 1.
 */
export const UtcOffset = z
  .union([
    // The range is checked once, after the string is read; the document shows it on the number.
    z.number().openapi({ type: "integer", minimum: -720, maximum: 840 }),
    z.string().regex(/^[+-]?\d{1,4}$/, "must be a whole number of minutes"),
  ])
  .nullish()
  .transform((value) => (value === null || value === undefined ? undefined : Number(value)))
  .pipe(z.number().int().min(-720).max(840).optional())
  .openapi({ example: -240, description: "Minutes east of UTC: a number or an integer string." });

/**
 * A registered component or null. `.nullable()` on a registered schema leaks null into the shared component (every
 * Shift became `Shift | null`); a union references the component and adds null beside it.
 */
export const orNull = <T extends z.ZodType>(schema: T) => z.union([schema, z.null()]);
