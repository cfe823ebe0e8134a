import type { Database } from "@/data/client";
import { type PackVersionRow, packsOnDates, packVersionsStatement, readLocationPack } from "@/data/fair-workweek/fair-workweek.data";
import { type ChangeRules, changeRulesOf } from "@/domain/fair-workweek/schedule-change";
import { addDays } from "@/domain/local-time";

/**
 * The location's change rules on `onDate` (its Fair Workweek pack with the organization's overrides), or null when it
 * has none: then nothing is recorded.
 */
export async function changeRulesOfLocation(db: Database, organizationId: string, locationId: string, onDate: string) {
  const pack = await readLocationPack(db, organizationId, locationId, onDate);
  return pack ? changeRulesOf(pack) : null;
}

/** The read of the location's setting versions, for a caller that runs it inside its own read batch (then `changeRulesRuns`). */
export const changeRulesStatement = (db: Database, organizationId: string, locationId: string) =>
  packVersionsStatement(db, organizationId, locationId);

/** Consecutive local dates [from, to] (null: open on that side) on which the location had the same change rules. */
export interface RulesRun {
  from: string | null;
  to: string | null;
  rules: ChangeRules;
}

/**
 * The location's change rules on each date of [firstDate, lastDate], from its setting's versions (the version in
 * effect on each date, the law's version of that date), as runs of dates sharing one pack: none where it had no
 * pack. The first run is open before firstDate and the last after lastDate when they have a pack (an entry's own
 * offset may date it a day outside the range asked).
 */
export function changeRulesRuns(versions: readonly PackVersionRow[], locationId: string, firstDate: string, lastDate: string): RulesRun[] {
  const packOn = packsOnDates(versions);
  const runs: (RulesRun & { key: string })[] = [];
  for (let date = firstDate; date <= lastDate; date = addDays(date, 1)) {
    const pack = packOn(locationId, date);
    const key = pack ? JSON.stringify(pack) : "";
    const last = runs.at(-1);
    if (last && last.key === key && last.to === addDays(date, -1)) last.to = date;
    else if (pack) runs.push({ from: date, to: date, rules: changeRulesOf(pack), key });
  }
  return runs.map(({ from, to, rules }, i) => ({
    from: i === 0 && from === firstDate ? null : from,
    to: i === runs.length - 1 && to === lastDate ? null : to,
    rules,
  }));
}

/** The rules of `runs` on `date` (null: none). */
export const rulesOnDate = (runs: readonly RulesRun[], date: string): ChangeRules | null =>
  runs.find((r) => (r.from === null || r.from <= date) && (r.to === null || date <= r.to))?.rules ?? null;
