import fc from "fast-check";

/*
 * RRULE-shaped strings built from parts (RFC 5545 §3.3.10), in any case: for the recurrence parser's property test
 * and for the OpenAPI fuzz, which must reach the parser with more than random text.
 */

const DAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"];
const pad = (n: number, width: number) => String(Math.abs(n)).padStart(width, "0");
const list = (item: fc.Arbitrary<string>) => fc.array(item, { minLength: 1, maxLength: 4 }).map((items) => items.join(","));
const int = (min: number, max: number) => fc.integer({ min, max }).map(String);
const signedInt = (min: number, max: number) =>
  fc.tuple(fc.constantFrom("", "+"), fc.integer({ min, max })).map(([sign, n]) => (n >= 0 ? `${sign}${n}` : String(n)));

const until = fc
  .tuple(
    fc.integer({ min: 1960, max: 2210 }),
    fc.integer({ min: 0, max: 13 }),
    fc.integer({ min: 0, max: 32 }),
    fc.option(fc.tuple(fc.integer({ min: 0, max: 25 }), fc.integer({ min: 0, max: 61 }), fc.boolean()), { nil: undefined }),
  )
  .map(([y, m, d, time]) => `${y}${pad(m, 2)}${pad(d, 2)}${time ? `T${pad(time[0], 2)}${pad(time[1], 2)}00${time[2] ? "Z" : ""}` : ""}`);

const byDay = list(fc.tuple(fc.option(signedInt(-60, 60), { nil: "" }), fc.constantFrom(...DAYS, "XX", "")).map(([n, d]) => `${n}${d}`));

/** A NAME=VALUE part with a plausible value, sometimes out of its range. */
export const rrulePart: fc.Arbitrary<[string, string]> = fc.oneof(
  fc.tuple(fc.constant("FREQ"), fc.constantFrom("DAILY", "WEEKLY", "MONTHLY", "YEARLY", "HOURLY", "SECONDLY", "FORTNIGHTLY")),
  fc.tuple(fc.constant("INTERVAL"), int(-2, 400)),
  fc.tuple(fc.constant("COUNT"), int(-1, 900)),
  fc.tuple(fc.constant("UNTIL"), until),
  fc.tuple(fc.constant("BYDAY"), byDay),
  fc.tuple(fc.constant("BYMONTHDAY"), list(signedInt(-40, 40))),
  fc.tuple(fc.constant("BYYEARDAY"), list(signedInt(-400, 400))),
  fc.tuple(fc.constant("BYWEEKNO"), list(signedInt(-60, 60))),
  fc.tuple(fc.constant("BYMONTH"), list(signedInt(-1, 14))),
  fc.tuple(fc.constant("BYSETPOS"), list(signedInt(-400, 400))),
  fc.tuple(fc.constant("WKST"), fc.constantFrom(...DAYS, "XX")),
  fc.tuple(fc.constantFrom("BYHOUR", "BYMINUTE", "X-NAME", "DTSTART"), int(0, 60)),
);

/** Upper case, lower case, or a capital then lower case: RFC 5545 reads names and values in any case. */
const anyCase = fc.constantFrom(
  (s: string) => s,
  (s: string) => s.toLowerCase(),
  (s: string) => s.charAt(0) + s.slice(1).toLowerCase(),
);

const join = (parts: [string, string][], cases: ((s: string) => string)[], prefix: string) =>
  prefix + parts.map(([name, value], i) => `${cases[i % cases.length]!(name)}=${cases[(i + 1) % cases.length]!(value)}`).join(";");

/** An RRULE-shaped string: usually FREQ first, then up to five parts (repeats possible), in any case. */
export const rruleShaped: fc.Arbitrary<string> = fc
  .tuple(
    fc.option(
      rrulePart.filter(([name]) => name === "FREQ"),
      { nil: undefined, freq: 8 },
    ),
    fc.array(rrulePart, { maxLength: 5 }),
    fc.array(anyCase, { minLength: 1, maxLength: 3 }),
    fc.constantFrom("", "", "", "RRULE:", "rrule:"),
  )
  .map(([freq, rest, cases, prefix]) => join(freq ? [freq, ...rest] : rest, cases, prefix));

/** A defect no rule survives, wherever it stands: a value out of range, a part RRULE lacks or that is refused. */
const defect: fc.Arbitrary<[string, string]> = fc.constantFrom<[string, string]>(
  ["BYSETPOS", "0"],
  ["BYSETPOS", "367"],
  ["BYSETPOS", "-367"],
  ["BYSETPOS", "400"],
  ["BYMONTH", "0"],
  ["BYMONTH", "13"],
  ["BYMONTHDAY", "32"],
  ["INTERVAL", "0"],
  ["COUNT", "801"],
  ["WKST", "XX"],
  ["UNTIL", "20260230"],
  ["UNTIL", "22010101T000000Z"],
  ["BYHOUR", "9"],
  ["X-NAME", "1"],
  ["DTSTART", "20260101T000000Z"],
  ["FREQ", "HOURLY"],
  ["BYDAY", ""],
);

/** RRULE-shaped strings sure to be refused: a valid-looking rule with a defect (or FREQ named twice) slipped in. */
export const rruleGarbage: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom("DAILY", "WEEKLY", "MONTHLY", "YEARLY"),
    fc.array(rrulePart, { maxLength: 3 }),
    fc.oneof(defect, fc.constantFrom<[string, string]>(["FREQ", "WEEKLY"], ["freq", "daily"])),
    fc.nat(),
    fc.array(anyCase, { minLength: 1, maxLength: 3 }),
  )
  .map(([freq, rest, bad, at, cases]) => {
    const parts: [string, string][] = [["FREQ", freq], ...rest];
    parts.splice(1 + (at % parts.length), 0, bad);
    return join(parts, cases, "");
  });
