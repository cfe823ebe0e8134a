import type { Holiday } from "@/domain/public-holidays";

type HolidaysClass = typeof import("date-holidays").default;

let loading: Promise<HolidaysClass> | null = null;

/**
 * The date-holidays dataset, evaluated on first use only: it is large, and a punch or a pay computation without an
 * award never needs it (a cold request does not pay for it).
 */
const loadDataset = (): Promise<HolidaysClass> => {
  loading ??= import("date-holidays").then((module) => module.default);
  return loading;
};

const memo = new Map<string, Holiday[]>();

/**
 * The dataset's holidays of `year` in a country (ISO 3166-1 alpha-2) and, when given, its state or province (the
 * dataset's subdivision code, e.g. VIC, ON, NY): [] for a country it does not know; a state it does not know falls
 * back to the country's national holidays.
 */
export async function datasetHolidays(country: string | null, state: string | null, year: number): Promise<Holiday[]> {
  if (!country) return [];
  const key = `${country}\u0000${state ?? ""}\u0000${year}`;
  const known = memo.get(key);
  if (known) return known;
  const Holidays = await loadDataset();
  const national = new Holidays(country);
  const regions = state ? national.getStates(country) : undefined;
  const holidays = state && regions && state.toUpperCase() in regions ? new Holidays(country, state.toUpperCase()) : national;
  const found = holidays.getHolidays(year) || [];
  const list = found.map((h) => ({ date: h.date.slice(0, 10), name: h.name, type: h.type }));
  memo.set(key, list);
  return list;
}
