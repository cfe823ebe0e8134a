import { Frequency, type Options, Weekday } from "rrule";
import { FIRST_YEAR, isCalendarDate, LAST_YEAR } from "./local-time";

/** The most occurrences a COUNT may ask for (a daily rule over two years and a month). */
export const MAX_COUNT = 800;

const FREQUENCIES = { DAILY: Frequency.DAILY, WEEKLY: Frequency.WEEKLY, MONTHLY: Frequency.MONTHLY, YEARLY: Frequency.YEARLY } as const;
type Freq = keyof typeof FREQUENCIES;
const DAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"] as const;
type Day = (typeof DAYS)[number];
const PARTS = [
  "FREQ",
  "UNTIL",
  "COUNT",
  "INTERVAL",
  "BYDAY",
  "BYMONTHDAY",
  "BYYEARDAY",
  "BYWEEKNO",
  "BYMONTH",
  "BYSETPOS",
  "WKST",
] as const;
type Part = (typeof PARTS)[number];

/** An RRULE read part by part (RFC 5545 §3.3.10): its canonical text and the options rrule expands. */
export interface Recurrence {
  /** Upper case, `RRULE:` dropped, parts in the order given, numbers without signs or zeros they do not need. */
  canonical: string;
  freq: Freq;
  /** UNTIL as a wall-clock reading written as UTC (a date alone is its midnight). */
  until: Date | null;
  options: Partial<Options>;
}

export type RecurrenceResult = { ok: true; recurrence: Recurrence } | { ok: false; message: string };

const fail = (message: string): RecurrenceResult => ({ ok: false, message });

/** A signed integer within ±max (never 0), or null. */
function signed(text: string, max: number, allowNegative = true): number | null {
  if (!/^[+-]?\d{1,3}$/.test(text)) return null;
  const n = Number(text);
  if (n === 0 || Math.abs(n) > max || (!allowNegative && n < 0)) return null;
  return n;
}

function numberList(text: string, max: number, allowNegative = true): number[] | null {
  const items = text.split(",").map((item) => signed(item, max, allowNegative));
  return items.every((n) => n !== null) ? (items as number[]) : null;
}

/** UNTIL: YYYYMMDD or YYYYMMDDTHHMMSS[Z], a real date and time from FIRST_YEAR to LAST_YEAR. */
function untilOf(text: string): Date | null {
  const match = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})Z?)?$/.exec(text);
  if (!match) return null;
  const [, y, m, d, hh = "00", mm = "00", ss = "00"] = match;
  if (!isCalendarDate(`${y}-${m}-${d}`) || Number(hh) > 23 || Number(mm) > 59 || Number(ss) > 59) return null;
  return new Date(`${y}-${m}-${d}T${hh}:${mm}:${ss}Z`);
}

const dayList = (text: string) =>
  text.split(",").map((item) => {
    const match = /^([+-]?\d{1,2})?(MO|TU|WE|TH|FR|SA|SU)$/.exec(item);
    if (!match) return null;
    const n = match[1] === undefined ? 0 : signed(match[1], 53);
    return n === null ? null : { n, day: match[2] as Day };
  });

/**
 * A strict reading of an RRULE as an availability uses it: names and values in any case, each part at most once,
 * only the parts RFC 5545 defines (no DTSTART, no time of day: startTime sets both), every value in its range and
 * allowed with the FREQ given. Never throws; what it accepts, rrule builds.
 */
export function parseRecurrenceRule(text: string): RecurrenceResult {
  const rule = text.trim().replace(/^RRULE:/i, "");
  if (rule.length === 0) return fail("is empty");
  if (/DTSTART/i.test(rule)) return fail("must not carry DTSTART: startTime is the first occurrence");
  const values = new Map<Part, string>();
  for (const piece of rule.split(";")) {
    const eq = piece.indexOf("=");
    if (eq <= 0) return fail(`part '${piece.slice(0, 40)}' is not NAME=VALUE`);
    const name = piece.slice(0, eq).trim().toUpperCase();
    const value = piece
      .slice(eq + 1)
      .trim()
      .toUpperCase();
    if (/^BY(HOUR|MINUTE|SECOND)$/.test(name)) return fail("must not set BYHOUR, BYMINUTE or BYSECOND: startTime sets the time of day");
    if (!(PARTS as readonly string[]).includes(name)) return fail(`'${name.slice(0, 40)}' is not an RRULE part`);
    if (values.has(name as Part)) return fail(`names ${name} more than once`);
    if (value.length === 0) return fail(`${name} has no value`);
    values.set(name as Part, value);
  }
  const freqText = values.get("FREQ");
  if (freqText === undefined || !(freqText in FREQUENCIES)) return fail("needs FREQ=DAILY, WEEKLY, MONTHLY or YEARLY");
  const freq = freqText as Freq;
  const options: Partial<Options> = { freq: FREQUENCIES[freq] };
  const canonical: string[] = [];
  let until: Date | null = null;
  for (const [name, value] of values) {
    switch (name) {
      case "FREQ":
        canonical.push(`FREQ=${freq}`);
        continue;
      case "INTERVAL": {
        const n = signed(value, 365, false);
        if (n === null || value.startsWith("+")) return fail("INTERVAL must be from 1 to 365");
        options.interval = n;
        canonical.push(`INTERVAL=${n}`);
        continue;
      }
      case "COUNT": {
        const n = /^\d{1,4}$/.test(value) ? Number(value) : 0;
        if (n < 1 || n > MAX_COUNT) return fail(`COUNT must be from 1 to ${MAX_COUNT}`);
        if (values.has("UNTIL")) return fail("must not carry both COUNT and UNTIL");
        options.count = n;
        canonical.push(`COUNT=${n}`);
        continue;
      }
      case "UNTIL": {
        until = untilOf(value);
        if (until === null) {
          return fail(`UNTIL must be a date YYYYMMDD or date-time YYYYMMDDTHHMMSSZ from ${FIRST_YEAR} to ${LAST_YEAR}`);
        }
        if (values.has("COUNT")) return fail("must not carry both COUNT and UNTIL");
        options.until = until;
        canonical.push(`UNTIL=${value}`);
        continue;
      }
      case "BYDAY": {
        const days = dayList(value);
        if (days.some((d) => d === null)) {
          return fail("BYDAY lists days as MO, TU, WE, TH, FR, SA, SU, optionally numbered from -53 to 53 (e.g. 1MO or -1FR)");
        }
        const numbered = (days as { n: number; day: Day }[]).filter((d) => d.n !== 0);
        if (numbered.length > 0) {
          if (freq !== "MONTHLY" && freq !== "YEARLY") return fail("BYDAY may be numbered (1MO, -1FR) only with FREQ=MONTHLY or YEARLY");
          if (freq === "YEARLY" && values.has("BYWEEKNO")) return fail("BYDAY must not be numbered with BYWEEKNO");
          const withinMonth = freq === "MONTHLY" || values.has("BYMONTH");
          if (withinMonth && numbered.some((d) => Math.abs(d.n) > 5)) return fail("BYDAY's number counts weeks of a month: from -5 to 5");
        }
        options.byweekday = (days as { n: number; day: Day }[]).map((d) => new Weekday(DAYS.indexOf(d.day), d.n === 0 ? undefined : d.n));
        canonical.push(`BYDAY=${(days as { n: number; day: Day }[]).map((d) => `${d.n === 0 ? "" : d.n}${d.day}`).join(",")}`);
        continue;
      }
      case "BYMONTHDAY": {
        const list = numberList(value, 31);
        if (!list) return fail("BYMONTHDAY lists days of the month from -31 to 31, never 0");
        if (freq === "WEEKLY") return fail("BYMONTHDAY must not be used with FREQ=WEEKLY");
        options.bymonthday = list;
        canonical.push(`BYMONTHDAY=${list.join(",")}`);
        continue;
      }
      case "BYYEARDAY": {
        const list = numberList(value, 366);
        if (!list) return fail("BYYEARDAY lists days of the year from -366 to 366, never 0");
        if (freq !== "YEARLY") return fail("BYYEARDAY needs FREQ=YEARLY");
        options.byyearday = list;
        canonical.push(`BYYEARDAY=${list.join(",")}`);
        continue;
      }
      case "BYWEEKNO": {
        const list = numberList(value, 53);
        if (!list) return fail("BYWEEKNO lists weeks from -53 to 53, never 0");
        if (freq !== "YEARLY") return fail("BYWEEKNO needs FREQ=YEARLY");
        options.byweekno = list;
        canonical.push(`BYWEEKNO=${list.join(",")}`);
        continue;
      }
      case "BYMONTH": {
        const list = numberList(value, 12, false);
        if (!list) return fail("BYMONTH lists months from 1 to 12");
        options.bymonth = list;
        canonical.push(`BYMONTH=${list.join(",")}`);
        continue;
      }
      case "BYSETPOS": {
        const list = numberList(value, 366);
        if (!list) return fail("BYSETPOS lists positions from -366 to 366, never 0");
        if (![...values.keys()].some((other) => other.startsWith("BY") && other !== "BYSETPOS")) {
          return fail("BYSETPOS needs another BYxxx part (such as BYDAY) to choose from");
        }
        options.bysetpos = list;
        canonical.push(`BYSETPOS=${list.join(",")}`);
        continue;
      }
      case "WKST": {
        const day = DAYS.indexOf(value as Day);
        if (day < 0) return fail("WKST must be MO, TU, WE, TH, FR, SA or SU");
        options.wkst = day;
        canonical.push(`WKST=${value}`);
      }
    }
  }
  return { ok: true, recurrence: { canonical: canonical.join(";"), freq, until, options } };
}
