import { holidayOverrides, locations } from "@db/schema";
import { eq } from "drizzle-orm";
import type { Database } from "@/data/client";
import { conditionsOf } from "@/domain/pay-presets";
import type { PayPreset } from "@/domain/pay-rules";
import { holidaysWithOverrides, NO_OVERRIDES, paidHolidayDates } from "@/domain/public-holidays";
import { datasetHolidays } from "./holiday-dataset";

/**
 * Every location of the organization (deleted ones too: their shifts are still paid) with its country, state and
 * holiday overrides: a row per location, what a pay computation's holiday calendar is built from.
 */
export const holidaySourcesStatement = (db: Database, organizationId: string) =>
  db
    .select({
      id: locations.id,
      country: locations.country,
      state: locations.state,
      added: holidayOverrides.added,
      removed: holidayOverrides.removed,
    })
    .from(locations)
    .leftJoin(holidayOverrides, eq(holidayOverrides.locationId, locations.id))
    .where(eq(locations.organizationId, organizationId));

export type HolidaySourceRow = Awaited<ReturnType<typeof holidaySourcesStatement>>[number];

/** Whether a date is a paid public holiday at a location. */
export type HolidayCalendar = (locationId: string, date: string) => boolean;

/**
 * The paid public holidays (or the holidays of `types`) of each location over the years from `fromDate` to `toDate`
 * (YYYY-MM-DD), overrides applied: the dataset is loaded only here, when a computation needs holidays.
 */
export async function holidayCalendar(
  rows: readonly HolidaySourceRow[],
  fromDate: string,
  toDate: string,
  types?: ReadonlySet<string>,
): Promise<HolidayCalendar> {
  const years: number[] = [];
  for (let year = Number(fromDate.slice(0, 4)); year <= Number(toDate.slice(0, 4)); year++) years.push(year);
  const byLocation = new Map<string, Set<string>>();
  for (const row of rows) {
    const overrides = row.added ? { added: row.added, removed: row.removed ?? [] } : NO_OVERRIDES;
    const dates = new Set<string>();
    for (const year of years) {
      const holidays = holidaysWithOverrides(await datasetHolidays(row.country, row.state, year), overrides, year);
      for (const date of paidHolidayDates(holidays, types)) dates.add(date);
    }
    if (dates.size > 0) byLocation.set(row.id, dates);
  }
  return (locationId, date) => byLocation.get(locationId)?.has(date) ?? false;
}

/** Whether any of the rule sets names an award (whose holiday rates need the holiday calendar). */
const setsNeedHolidays = (sets: readonly { preset: string }[]) => sets.some((set) => conditionsOf(set.preset as PayPreset).award !== null);

/**
 * The holiday calendar of [fromDate, toDate] when the organization's rule sets need one (one more statement, and the
 * dataset loaded), else none: an organization without an award never reads its locations' holidays for pay.
 */
export async function holidayCalendarFor(
  db: Database,
  organizationId: string,
  sets: readonly { preset: string }[],
  fromDate: string,
  toDate: string,
): Promise<HolidayCalendar | undefined> {
  if (!setsNeedHolidays(sets)) return undefined;
  return holidayCalendar(await holidaySourcesStatement(db, organizationId), fromDate, toDate);
}
