import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { Database } from "@/data/client";
import { RULE_PACK_IDS, rulePack } from "@/domain/fair-workweek/packs";
import { changeRulesOf } from "@/domain/fair-workweek/schedule-change";
import type { LocationFairWorkweekRow } from "./fair-workweek.data";
import { effectivePack, readLocationPack, storedSetting } from "./fair-workweek.data";

/**
 * The location's change rules on `onDate` (its Fair Workweek pack with the organization's overrides), or null when it
 * has none: then nothing is recorded.
 */
export async function changeRulesOfLocation(db: Database, organizationId: string, locationId: string, onDate: string) {
  const pack = await readLocationPack(db, organizationId, locationId, onDate);
  return pack ? changeRulesOf(pack) : null;
}

/** The read of the location's setting, for a caller that runs it inside its own read batch (then `changeRulesOfSetting`). */
export const changeRulesStatement = storedSetting;

/** The change rules a stored setting gives on `onDate` (undefined: no row), as changeRulesOfLocation answers them. */
export function changeRulesOfSetting(row: Pick<LocationFairWorkweekRow, "rulePack" | "overrides"> | undefined, onDate: string) {
  const pack = effectivePack(row, onDate);
  return pack ? changeRulesOf(pack) : null;
}

/**
 * In SQL, for a read in the same batch as the setting's: `start` is inside the notice window of the location's pack
 * on `onDate` as seen at `now` (less than noticeDays days away, the overrides' noticeDays first), false without a
 * pack. Both are uncorrelated subqueries on the setting's key, run once per statement: without a pack nothing is
 * read. The window it applies is the one changeRulesOfSetting answers.
 */
export function insideLocationWindow(organizationId: string, locationId: string, start: SQLWrapper, now: number, onDate: string): SQL {
  // The built-in packs' ids and notice days are the code's own constants: written inline, no parameter each.
  const byPack = sql.raw(
    RULE_PACK_IDS.flatMap((id) => {
      const pack = rulePack(id, onDate);
      return pack ? [`WHEN '${id}' THEN ${pack.noticeDays}`] : [];
    }).join(" ") || "WHEN NULL THEN NULL",
  );
  // Qualified by hand: the outer statement's table shares location_id and organization_id. The EXISTS names no
  // column of the outer statement: SQLite tests it once, before its loop, so without a pack nothing is read.
  const setting = sql`location_fair_workweek f WHERE f.location_id = ${locationId} AND f.organization_id = ${organizationId}
    AND f.rule_pack IS NOT NULL`;
  return sql`(EXISTS (SELECT 1 FROM ${setting}) AND ${start} < (SELECT ${now} + coalesce(json_extract(f.overrides, '$.noticeDays'), CASE f.rule_pack ${byPack} END) * 86400000
    FROM ${setting}))`;
}
