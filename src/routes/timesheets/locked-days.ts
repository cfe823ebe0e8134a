import { and, eq } from "drizzle-orm";
import { lockedDays, locations } from "../../../drizzle/schema";
import type { Database } from "../../lib/db";
import { guardedBatch } from "../../lib/principal-guard";
import { invalidField } from "../../lib/problem";
import { inOrganization } from "../../lib/tenancy";
import { iso } from "../../lib/time";
import { actorOf, type TimesheetScope } from "./timesheet-scope";

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
  const [, rows] = await guardedBatch({ db, principal: scope.principal }, [
    db
      .insert(lockedDays)
      .values({ organizationId: scope.organizationId, ...day, lockedBy: actorOf(scope.principal), createdAt: new Date() })
      .onConflictDoNothing(),
    db.select().from(lockedDays).where(and(eq(lockedDays.locationId, day.locationId), eq(lockedDays.date, day.date))),
  ]);
  return lockedDay(scope.organizationId, day, rows[0]);
}

/** Reopens the day; reopening an open day changes nothing. */
export async function unlockDayAt(db: Database, scope: TimesheetScope, day: DayAtLocation) {
  await requireLocation(db, scope.organizationId, day.locationId);
  await guardedBatch({ db, principal: scope.principal }, [
    db
      .delete(lockedDays)
      .where(and(eq(lockedDays.organizationId, scope.organizationId), eq(lockedDays.locationId, day.locationId), eq(lockedDays.date, day.date))),
  ]);
  return lockedDay(scope.organizationId, day, undefined);
}
