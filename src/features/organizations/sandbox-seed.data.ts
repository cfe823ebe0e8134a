import { locations, scheduleEntries, staffMembers } from "@db/schema";
import { getTableColumns } from "drizzle-orm";
import { chunk, rowsPerStatement } from "@/data/chunk";
import type { Database } from "@/data/client";
import { newId } from "@/data/ids";
import { SANDBOX_LOCATION, SANDBOX_STAFF, sandboxWeek } from "@/domain/sandbox-seed";

/**
 * The rows of a seeded sandbox (domain/sandbox-seed): a location in the organization's zone, three hourly staff
 * members with the Employee access role and the Default role, and their week of published schedule entries.
 */
export function sandboxSeed(
  organization: { id: string; timezone: string },
  ids: { employeeAccessRoleId: string; roleId: string },
  now: Date,
) {
  const owned = () => ({ id: newId(now.getTime()), organizationId: organization.id, createdAt: now, updatedAt: now });
  const location = { ...owned(), ...SANDBOX_LOCATION, timezone: organization.timezone };
  const staff = SANDBOX_STAFF.map((member) => ({
    ...owned(),
    ...member,
    accessRoleId: ids.employeeAccessRoleId,
    wageType: "hourly",
    employmentType: "full_time",
    locationIds: [location.id],
    roleIds: [ids.roleId],
  }));
  const entries = sandboxWeek(now, organization.timezone).map((shift) => ({
    ...owned(),
    locationId: location.id,
    employeeId: staff[shift.staffIndex]!.id,
    roleId: ids.roleId,
    startAt: shift.startAt,
    endAt: shift.endAt,
    utcOffset: shift.utcOffset,
    timezone: organization.timezone,
    isDraft: false,
    publishedAt: now,
  }));
  const statements = (db: Database) => [
    db.insert(locations).values(location),
    db.insert(staffMembers).values(staff),
    ...chunk(entries, rowsPerStatement(Object.keys(getTableColumns(scheduleEntries)).length)).map((rows) =>
      db.insert(scheduleEntries).values(rows),
    ),
  ];
  return { locationId: location.id, staffMemberIds: staff.map((s) => s.id), scheduleEntryIds: entries.map((e) => e.id), statements };
}
