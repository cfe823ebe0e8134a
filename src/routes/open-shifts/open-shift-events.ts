import { and, eq, inArray, sql } from "drizzle-orm";
import { openShiftPreferences } from "../../../drizzle/schema";
import type { EventSpec, EventType } from "../../lib/events";
import { type PreferenceRow, serializePreferenceRecord } from "./open-shifts.schemas";

/**
 * Open shift events. A preference's event carries its own fields (serializePreferenceRecord); rows this write did
 * not change are told apart by `updatedAt`, which every preference write sets to its own instant.
 */
export const claimedEvent = (row: PreferenceRow): EventSpec => ({
  organizationId: row.organizationId,
  type: "open_shift.claimed",
  occurredAt: row.updatedAt,
  data: serializePreferenceRecord(row),
});

/** One open_shift.assigned per preference this batch approved. */
export const assignedEvents = (organizationId: string, preferenceIds: readonly string[], now: Date): EventSpec => ({
  organizationId,
  occurredAt: now,
  rows: {
    table: openShiftPreferences,
    where: and(inArray(openShiftPreferences.id, [...preferenceIds]), eq(openShiftPreferences.status, "APPROVED"), eq(openShiftPreferences.updatedAt, now))!,
    typeOf: sql`${"open_shift.assigned" satisfies EventType}`,
  },
});

/** The preference as this write left it, if it did (the batch's last statement changed a row). */
export const preferenceEvent = (organizationId: string, type: EventType, preferenceId: string, now: Date): EventSpec => ({
  organizationId,
  type,
  occurredAt: now,
  row: { table: openShiftPreferences, where: and(eq(openShiftPreferences.id, preferenceId), eq(openShiftPreferences.updatedAt, now))! },
});
