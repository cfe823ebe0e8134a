/*
 * Public holidays of a location: the maintained dataset's (date-holidays, by the location's country and state) with
 * the organization's overrides laid over them. Pay reads the public ones (an award's holiday rates); the list shows
 * every type the dataset names (public, bank, optional, school, observance).
 */

export interface Holiday {
  date: string;
  name: string;
  /** The dataset's type: public, bank, school, optional or observance; an added date is public. */
  type: string;
}

export interface HolidayOverrides {
  added: readonly { date: string; name: string }[];
  removed: readonly string[];
}

export const NO_OVERRIDES: HolidayOverrides = { added: [], removed: [] };

/** The dataset's types pay treats as public holidays (a bank holiday is one in the UK and Ireland). */
export const PAID_HOLIDAY_TYPES: ReadonlySet<string> = new Set(["public", "bank"]);

/** At most this many dates added, and as many removed, per location. */
export const HOLIDAY_OVERRIDES_MAX = 100;

/**
 * The holidays of `year` with the overrides applied: every dataset holiday on a removed date goes, each added date
 * comes (as public, under its name, replacing the dataset's of that date), in date order.
 */
export function holidaysWithOverrides(dataset: readonly Holiday[], overrides: HolidayOverrides, year: number): Holiday[] {
  const prefix = `${String(year).padStart(4, "0")}-`;
  const removed = new Set(overrides.removed);
  const added = overrides.added.filter((a) => a.date.startsWith(prefix));
  const addedDates = new Set(added.map((a) => a.date));
  const kept = dataset.filter((h) => !removed.has(h.date) && !addedDates.has(h.date));
  const merged = [...kept, ...added.filter((a) => !removed.has(a.date)).map((a) => ({ date: a.date, name: a.name, type: "public" }))];
  return merged.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The dates pay treats as public holidays, of holidays with their overrides applied (or those of other `types`). */
export const paidHolidayDates = (holidays: readonly Holiday[], types: ReadonlySet<string> = PAID_HOLIDAY_TYPES): Set<string> =>
  new Set(holidays.filter((h) => types.has(h.type)).map((h) => h.date));

/** The dataset's type of a statutory public holiday (Germany's gesetzliche Feiertage; 24 December is "bank"). */
export const STATUTORY_HOLIDAY_TYPES: ReadonlySet<string> = new Set(["public"]);

/** What is wrong with overrides: a date added twice, or both added and removed (which would mean nothing). */
export function holidayOverrideProblems(overrides: HolidayOverrides): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  const seen = new Set<string>();
  overrides.added.forEach((a, i) => {
    if (seen.has(a.date)) problems.push({ path: `added.${i}.date`, message: "is added twice" });
    seen.add(a.date);
  });
  const removed = new Set<string>();
  overrides.removed.forEach((date, i) => {
    if (seen.has(date)) problems.push({ path: `removed.${i}`, message: "is also added: a date is either added or removed" });
    if (removed.has(date)) problems.push({ path: `removed.${i}`, message: "is removed twice" });
    removed.add(date);
  });
  return problems;
}
