import type { Database } from "@/data/client";
import { changeRulesOf } from "@/domain/fair-workweek/schedule-change";
import { readLocationPack } from "@/features/fair-workweek/fair-workweek.data";

/**
 * The location's change rules on `onDate` (its Fair Workweek pack with the organization's overrides), or null when it
 * has none: then nothing is recorded.
 */
export async function changeRulesOfLocation(db: Database, organizationId: string, locationId: string, onDate: string) {
  const pack = await readLocationPack(db, organizationId, locationId, onDate);
  return pack ? changeRulesOf(pack) : null;
}
