import { openShiftPreferences, staffMembers } from "@db/schema";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { EventSpec, EventType, Snapshot } from "@/data/outbox/outbox";
import type { PreferenceRow } from "./open-shifts.schemas";

/** What the API answers of a preference: the row and its worker's externalId (a correlated read, in the batch). */
export const preferenceFields = {
  preference: openShiftPreferences,
  workerExternalId: sql<
    string | null
  >`(SELECT ${staffMembers.externalId} FROM ${staffMembers} WHERE ${staffMembers.id} = ${openShiftPreferences.workerId})`,
};

const preferenceSnapshot: Snapshot = { form: "open_shift_preference", fields: preferenceFields };

/**
 * Open shift events. A preference's event carries the preference as the API answers it (serializePreference, from
 * the row the batch wrote and its worker); rows this write did not change are told apart by `updatedAt`, which
 * every preference write sets to its own instant.
 */
export const claimedEvent = (row: PreferenceRow): EventSpec => ({
  organizationId: row.organizationId,
  type: "open_shift.claimed",
  occurredAt: row.updatedAt,
  row: { table: openShiftPreferences, where: eq(openShiftPreferences.id, row.id), snapshot: preferenceSnapshot },
});

/** One open_shift.assigned per preference this batch approved. */
export const assignedEvents = (organizationId: string, preferenceIds: readonly string[], now: Date): EventSpec => ({
  organizationId,
  occurredAt: now,
  rows: {
    table: openShiftPreferences,
    where: and(
      inArray(openShiftPreferences.id, [...preferenceIds]),
      eq(openShiftPreferences.status, "APPROVED"),
      eq(openShiftPreferences.updatedAt, now),
    )!,
    typeOf: sql`${"open_shift.assigned" satisfies EventType}`,
    snapshot: preferenceSnapshot,
  },
});

/** The preference as this write left it, if it did (the batch's last statement changed a row). */
export const preferenceEvent = (organizationId: string, type: EventType, preferenceId: string, now: Date): EventSpec => ({
  organizationId,
  type,
  occurredAt: now,
  row: {
    table: openShiftPreferences,
    where: and(eq(openShiftPreferences.id, preferenceId), eq(openShiftPreferences.updatedAt, now))!,
    snapshot: preferenceSnapshot,
  },
});
