import type { Database } from "@/data/client";
import { changeRulesOf } from "@/domain/fair-workweek/schedule-change";
import { effectivePack, readLocationPack, storedSetting } from "@/features/fair-workweek/fair-workweek.data";

/** The location's stored Fair Workweek setting, as a statement for a caller's batch (changeRulesOfSetting reads it). */
export const locationSettingStatement = storedSetting;

/**
 * The location's change rules on `onDate` (its Fair Workweek pack with the organization's overrides), or null when it
 * has none: then nothing is recorded.
 */
export async function changeRulesOfLocation(db: Database, organizationId: string, locationId: string, onDate: string) {
  const pack = await readLocationPack(db, organizationId, locationId, onDate);
  return pack ? changeRulesOf(pack) : null;
}

/** The change rules of a stored setting row (read in the caller's batch: fair-workweek.data storedSetting) on `onDate`. */
export function changeRulesOfSetting(row: Parameters<typeof effectivePack>[0], onDate: string) {
  const pack = effectivePack(row, onDate);
  return pack ? changeRulesOf(pack) : null;
}
