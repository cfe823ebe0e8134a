import { locations, staffMembers } from "@db/schema";
import { and, eq, sql } from "drizzle-orm";
import type { SQLiteUpdateSetSource } from "drizzle-orm/sqlite-core";
import type { Database, Statement } from "@/data/client";
import { organizationNow } from "@/data/clock";
import { inJsonList, jsonArrayContains } from "@/data/json-list";
import type { EventType } from "@/data/outbox/outbox";
import { inOrganization } from "@/data/tenancy";
import { findLive } from "@/data/tenant-records";
import { type ConstraintProblems, whenDuplicate } from "@/data/write/constraint-problems";
import { guardedBatch, type Writer } from "@/data/write/guarded-batch";
import { type IfMatch, matchesVersion, nextVersion, versionCondition } from "@/platform/http/conditional";
import { conflict, forbidden, preconditionFailed } from "@/problems/problem";
import { holdingOneOf, liveAccessRole, staffGuardProblems } from "./staff-members.guards";

const WRITE_PROBLEMS: ConstraintProblems = [
  whenDuplicate(staffMembers, () => conflict("EXTERNAL_ID_TAKEN", "Another staff member of this organization has that externalId.")),
  ...staffGuardProblems,
];

type StaffMemberChanges = SQLiteUpdateSetSource<typeof staffMembers>;

/** The organization's staff members, as the crud helpers (platform/crud) list and read them. */
export const staffMemberRecords = staffMembers;

/** The staff members assigned to a location (a list's filter). */
export const atLocation = (locationId: string) => jsonArrayContains(staffMembers.locationIds, locationId);

/** The staff member with this externalId (a read's match). */
export const withExternalId = (externalId: string) => eq(staffMembers.externalId, externalId);

/** The list's filters: a location, a role, an email (any case), active or not. */
export const staffFilters = (query: { locationId?: string; roleId?: string; email?: string; active?: boolean }) => [
  query.locationId ? atLocation(query.locationId) : undefined,
  query.roleId ? jsonArrayContains(staffMembers.roleIds, query.roleId) : undefined,
  query.email ? sql`lower(${staffMembers.email}) = ${query.email.toLowerCase()}` : undefined,
  query.active === undefined ? undefined : eq(staffMembers.active, query.active),
];

/** The organization's live locations among `ids` (a member's), in no particular order. */
export const locationsOf = (db: Database, organizationId: string, ids: string[]) =>
  db
    .select()
    .from(locations)
    .where(and(inOrganization(locations, organizationId), inJsonList(locations.id, ids)));

/** Stores a new staff member (their access role guarded live) with its event, and the time-off grants due to them. */
export async function insertStaffMember(
  writer: Writer,
  row: typeof staffMembers.$inferInsert,
  accessRoleId: string,
  now: Date,
  grants: Statement[],
) {
  const insert = writer.db
    .insert(staffMembers)
    .values({ ...row, accessRoleId: liveAccessRole.sql(row.organizationId, accessRoleId) })
    .returning();
  const [[created]] = await guardedBatch(writer, [insert], WRITE_PROBLEMS, {
    events: [
      {
        type: "staff_member.created",
        organizationId: row.organizationId,
        occurredAt: now,
        row: { table: staffMembers, where: eq(staffMembers.id, row.id) },
      },
    ],
    trailing: grants,
  });
  return created!;
}

/**
 * Updates the live member `id` only while they hold an access role the caller may grant (the read that checked
 * it may be stale) and, with If-Match, is that version; behind the principal guard. When the update matches
 * nothing, the member is gone (404), another version (412) or was promoted meanwhile (403).
 */
export async function updateManageable(
  writer: Writer,
  organizationId: string,
  id: string,
  grantable: string[],
  values: StaffMemberChanges,
  event: EventType,
  ifMatch: IfMatch,
  trailing: Statement[] = [],
) {
  const { db } = writer;
  const now = await organizationNow({ ...writer, organizationId });
  const update = db
    .update(staffMembers)
    .set({ ...values, updatedAt: nextVersion(staffMembers.updatedAt, now) })
    .where(
      and(
        inOrganization(staffMembers, organizationId),
        eq(staffMembers.id, id),
        holdingOneOf(grantable),
        versionCondition(staffMembers.updatedAt, ifMatch),
      ),
    )
    .returning();
  const written = and(eq(staffMembers.organizationId, organizationId), eq(staffMembers.id, id))!;
  const [[row]] = await guardedBatch(writer, [update], WRITE_PROBLEMS, {
    events: [{ type: event, organizationId, row: { table: staffMembers, where: written } }],
    trailing,
  });
  if (row) return row;
  const current = await findLive(db, staffMembers, organizationId, id, "Staff member");
  if (!matchesVersion(ifMatch, current)) throw preconditionFailed();
  throw forbidden("The staff member got an access role you may not grant meanwhile; nothing was changed.");
}
