import fc from "fast-check";

/**
 * An independent reading of a zone's wall clock for property tests: Intl's own formatting of an instant, parsed as
 * text, with no code of src/domain. Returns the reading written with Z, to the minute.
 */
const readers = new Map<string, Intl.DateTimeFormat>();
export function wallClockIn(timeZone: string, instantMs: number): string {
  let reader = readers.get(timeZone);
  if (!reader) {
    reader = new Intl.DateTimeFormat("sv-SE", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
    });
    readers.set(timeZone, reader);
  }
  // sv-SE formats as "2026-03-08 03:30".
  return `${reader.format(new Date(instantMs)).replace(" ", "T")}:00.000Z`;
}

/** Zones with every kind of change: DST both hemispheres, a 30-minute DST, odd offsets, midnight changes, none. */
export const ZONES = [
  "America/New_York",
  "Europe/London",
  "Europe/Berlin",
  "Australia/Sydney",
  "Australia/Lord_Howe",
  "America/Santiago",
  "America/Havana",
  "Asia/Kathmandu",
  "Pacific/Chatham",
  "UTC",
] as const;

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
export const FROM_MS = Date.UTC(2025, 0, 1);
export const TO_MS = Date.UTC(2028, 0, 1);

/** Whole minutes east of UTC at an instant, read from the independent wall clock. */
export const offsetIn = (timeZone: string, instantMs: number) => {
  const minuteMs = Math.floor(instantMs / MINUTE_MS) * MINUTE_MS;
  return Math.round((Date.parse(wallClockIn(timeZone, minuteMs)) - minuteMs) / MINUTE_MS);
};

/** Every instant (to the minute) where a zone's offset changes between FROM_MS and TO_MS: scanned daily, bisected. */
function transitionsOf(timeZone: string): number[] {
  const found: number[] = [];
  for (let day = FROM_MS; day < TO_MS; day += DAY_MS) {
    if (offsetIn(timeZone, day) === offsetIn(timeZone, day + DAY_MS)) continue;
    let [lo, hi] = [day, day + DAY_MS];
    while (hi - lo > MINUTE_MS) {
      const mid = lo + Math.floor((hi - lo) / 2 / MINUTE_MS) * MINUTE_MS;
      if (offsetIn(timeZone, mid) === offsetIn(timeZone, lo)) lo = mid;
      else hi = mid;
    }
    found.push(hi);
  }
  return found;
}

const transitions = new Map<string, number[]>();
export const transitionsIn = (timeZone: string) => {
  let list = transitions.get(timeZone);
  if (!list) transitions.set(timeZone, (list = transitionsOf(timeZone)));
  return list;
};

/** An instant, to the millisecond: anywhere in the years covered, or (as often) within 3 h of one of the zone's changes. */
export const instantNearChangesIn = (timeZone: string): fc.Arbitrary<number> => {
  const changes = transitionsIn(timeZone);
  const anywhere = fc.integer({ min: FROM_MS, max: TO_MS - 1 });
  if (changes.length === 0) return anywhere;
  return fc.oneof(
    anywhere,
    fc.tuple(fc.constantFrom(...changes), fc.integer({ min: -3 * 3_600_000, max: 3 * 3_600_000 })).map(([change, delta]) => change + delta),
  );
};
