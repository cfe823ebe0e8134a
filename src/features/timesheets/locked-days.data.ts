import { locations, lockedDays } from "@db/schema";
import { and, eq } from "drizzle-orm";
import type { Database } from "@/data/client";
import { organizationNow } from "@/data/clock";
import { inOrganization } from "@/data/tenancy";
import { guardedBatch } from "@/data/write/guarded-batch";
import { iso } from "@/platform/schemas/time";
import { invalidField } from "@/problems/problem";
import { actorOf, type TimesheetScope } from "./timesheet-scope.guards";

interface DayAtLocation {
  date: string;
  locationId: string;
}

async function requireLocation(db: Database, organizationId: string, locationId: string) {
  const [location] = await db
    .select({ id: locations.id })
    .from(locations)
    .where(and(inOrganization(locations, organizationId), eq(locations.id, locationId)));
  if (!location) throw invalidField("locationId", "no location with that id in this organization");
}

type LockRow = typeof lockedDays.$inferSelect;

const lockedDay = (organizationId: string, day: DayAtLocation, row: LockRow | undefined) => ({
  organizationId,
  locationId: day.locationId,
  date: day.date,
  locked: row !== undefined,
  lockedBy: row?.lockedBy ?? null,
  lockedAt: row ? iso(row.createdAt) : null,
});

/** Locks the day; the primary key (location, date) makes a second lock a no-op that answers the first. */
export async function lockDayAt(db: Database, scope: TimesheetScope, day: DayAtLocation) {
  await requireLocation(db, scope.organizationId, day.locationId);
  const now = await organizationNow({ db, ...scope });
  const lock = { organizationId: scope.organizationId, ...day, lockedBy: actorOf(scope.principal), createdAt: now };
  const [, rows] = await guardedBatch(
    { db, principal: scope.principal, organizationId: scope.organizationId },
    [
      db.insert(lockedDays).values(lock).onConflictDoNothing(),
      db
        .select()
        .from(lockedDays)
        .where(and(eq(lockedDays.locationId, day.locationId), eq(lockedDays.date, day.date))),
    ],
    [],
    {
      // Recorded when the insert (not the select after it: a SELECT leaves changes() as it was) locked the day.
      events: [
        {
          type: "timesheet.day_locked",
          organizationId: scope.organizationId,
          occurredAt: now,
          data: lockedDay(scope.organizationId, day, lock),
          whenChanged: true,
        },
      ],
    },
  );
  return lockedDay(scope.organizationId, day, rows[0]);
}

/** Reopens the day; reopening an open day changes nothing. */
export async function unlockDayAt(db: Database, scope: TimesheetScope, day: DayAtLocation) {
  await requireLocation(db, scope.organizationId, day.locationId);
  await guardedBatch(
    { db, principal: scope.principal, organizationId: scope.organizationId },
    [
      db
        .delete(lockedDays)
        .where(
          and(
            eq(lockedDays.organizationId, scope.organizationId),
            eq(lockedDays.locationId, day.locationId),
            eq(lockedDays.date, day.date),
          ),
        ),
    ],
    [],
    {
      events: [
        {
          type: "timesheet.day_unlocked",
          organizationId: scope.organizationId,
          data: lockedDay(scope.organizationId, day, undefined),
          whenChanged: true,
        },
      ],
    },
  );
  return lockedDay(scope.organizationId, day, undefined);
}
