import { locations, staffMembers } from "@db/schema";
import { and, eq, sql } from "drizzle-orm";
import type { SQLiteUpdateSetSource } from "drizzle-orm/sqlite-core";
import type { Statement } from "@/data/client";
import { newId } from "@/data/ids";
import { inJsonList, jsonArrayContains } from "@/data/json-list";
import type { EventType } from "@/data/outbox/outbox";
import { inOrganization, softDeleted } from "@/data/tenancy";
import { grantsForStaff, staffWithIds } from "@/data/time-off/grants-now.data";
import { type ConstraintProblems, whenDuplicate } from "@/data/write/constraint-problems";
import { guardedBatch } from "@/data/write/guarded-batch";
import { findLive, getLive, listPage, type WriteContext } from "@/platform/crud/tenant-queries";
import { ifMatchOf, matchesVersion, nextVersion, setETag, versionCondition } from "@/platform/http/conditional";
import type { AppRouteHandler } from "@/platform/http/env";
import { conflict, forbidden, preconditionFailed } from "@/problems/problem";
import { serializeLocation } from "@/wire/location.schemas";
import { holdingOneOf, liveAccessRole, staffGuardProblems } from "./staff-members.guards";
import type * as routes from "./staff-members.routes";
import { serializeStaffMember } from "./staff-members.schemas";
import { newStaffMemberRow, toColumns } from "./staff-members-columns.data";
import { defaultAccessRole, resolveMember, resolveReferences } from "./staff-members-references.data";
import { syncStaffMembers } from "./staff-members-sync.data";

const WRITE_PROBLEMS: ConstraintProblems = [
  whenDuplicate(staffMembers, () => conflict("EXTERNAL_ID_TAKEN", "Another staff member of this organization has that externalId.")),
  ...staffGuardProblems,
];

type StaffMemberChanges = SQLiteUpdateSetSource<typeof staffMembers>;

export const list: AppRouteHandler<routes.ListRoute> = async (c) => {
  const { organization_id } = c.req.valid("param");
  const query = c.req.valid("query");
  const rows = await listPage(
    c,
    c.var.db,
    staffMembers,
    organization_id,
    query,
    query.locationId ? jsonArrayContains(staffMembers.locationIds, query.locationId) : undefined,
    query.roleId ? jsonArrayContains(staffMembers.roleIds, query.roleId) : undefined,
    query.email ? sql`lower(${staffMembers.email}) = ${query.email.toLowerCase()}` : undefined,
    query.active === undefined ? undefined : eq(staffMembers.active, query.active),
  );
  return c.json(rows.map(serializeStaffMember), 200);
};

export const getOne: AppRouteHandler<routes.GetOneRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  return c.json(serializeStaffMember(await getLive(c, staffMembers, organization_id, id, "Staff member")), 200);
};

export const getByExternalId: AppRouteHandler<routes.GetByExternalIdRoute> = async (c) => {
  const { organization_id, externalId } = c.req.valid("param");
  const row = await getLive(c, staffMembers, organization_id, eq(staffMembers.externalId, externalId), "Staff member");
  return c.json(serializeStaffMember(row), 200);
};

export const listLocations: AppRouteHandler<routes.ListLocationsRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  const member = await findLive(c.var.db, staffMembers, organization_id, id, "Staff member");
  const rows = await c.var.db
    .select()
    .from(locations)
    .where(and(inOrganization(locations, organization_id), inJsonList(locations.id, member.locationIds)));
  const byId = new Map(rows.map((row) => [row.id, row]));
  const assigned = member.locationIds.flatMap((locationId) => byId.get(locationId) ?? []);
  return c.json(assigned.map(serializeLocation), 200);
};

export const listForLocation: AppRouteHandler<routes.ListForLocationRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  const query = c.req.valid("query");
  await findLive(c.var.db, locations, organization_id, id, "Location");
  const rows = await listPage(c, c.var.db, staffMembers, organization_id, query, jsonArrayContains(staffMembers.locationIds, id));
  return c.json(rows.map(serializeStaffMember), 200);
};

export const create: AppRouteHandler<routes.CreateRoute> = async (c) => {
  const { organization_id } = c.req.valid("param");
  const body = c.req.valid("json");
  const now = new Date();
  const id = newId(now.getTime());
  const [references, grants] = await Promise.all([
    resolveReferences(c.var.db, c.var.principal, organization_id, [body], (_, field) => field),
    grantsForStaff(c.var.db, organization_id, staffWithIds([id]), now),
  ]);
  const accessRoleId = references.accessRoleIds[0] ?? defaultAccessRole(references, "accessRoleId");
  const row = newStaffMemberRow(organization_id, id, accessRoleId, body, now);
  const insert = c.var.db
    .insert(staffMembers)
    .values({ ...row, accessRoleId: liveAccessRole.sql(organization_id, accessRoleId) })
    .returning();
  const [[created]] = await guardedBatch(c.var, [insert], WRITE_PROBLEMS, {
    events: [
      {
        type: "staff_member.created",
        organizationId: organization_id,
        occurredAt: now,
        row: { table: staffMembers, where: eq(staffMembers.id, row.id) },
      },
    ],
    trailing: grants,
  });
  setETag(c, created!);
  return c.json(serializeStaffMember(created!), 201);
};

export const sync: AppRouteHandler<routes.SyncRoute> = async (c) => {
  const { organization_id } = c.req.valid("param");
  const result = await syncStaffMembers(c.var, organization_id, c.req.valid("json"));
  return c.json({ ...result, records: result.records.map(serializeStaffMember) }, 200);
};

/**
 * Updates the live member `id` only while they hold an access role the caller may grant (the read that checked
 * it may be stale) and, with If-Match, is that version; behind the principal guard. When the update matches
 * nothing, the member is gone (404), another version (412) or was promoted meanwhile (403).
 */
async function updateManageable(
  c: WriteContext,
  organizationId: string,
  id: string,
  grantable: string[],
  values: StaffMemberChanges,
  event: EventType,
  trailing: Statement[] = [],
) {
  const { db } = c.var;
  const ifMatch = ifMatchOf(c);
  const update = db
    .update(staffMembers)
    .set({ ...values, updatedAt: nextVersion(staffMembers.updatedAt) })
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
  const [[row]] = await guardedBatch(c.var, [update], WRITE_PROBLEMS, {
    events: [{ type: event, organizationId, row: { table: staffMembers, where: written } }],
    trailing,
  });
  if (row) {
    setETag(c, row);
    return row;
  }
  const current = await findLive(db, staffMembers, organizationId, id, "Staff member");
  if (!matchesVersion(ifMatch, current)) throw preconditionFailed();
  throw forbidden("The staff member got an access role you may not grant meanwhile; nothing was changed.");
}

export const patch: AppRouteHandler<routes.PatchRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  const body = c.req.valid("json");
  const db = c.var.db;
  // A change of what time-off inclusion reads may include the member in a policy: its grant comes with the change.
  const mayInclude = body.roleIds !== undefined || body.locationIds !== undefined || body.employmentType !== undefined;
  const [references, grants] = await Promise.all([
    resolveReferences(db, c.var.principal, organization_id, [body], (_, field) => field, { memberId: id }),
    mayInclude ? grantsForStaff(db, organization_id, staffWithIds([id]), new Date()) : [],
  ]);
  const accessRoleId = references.accessRoleIds[0];
  const changes = {
    ...toColumns(body),
    ...(accessRoleId && { accessRoleId: liveAccessRole.sql(organization_id, accessRoleId) }),
    updatedAt: new Date(),
  };
  const row = await updateManageable(c, organization_id, id, references.grantableAccessRoleIds, changes, "staff_member.updated", grants);
  return c.json(serializeStaffMember(row), 200);
};

export const remove: AppRouteHandler<routes.RemoveRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  const references = await resolveMember(c.var.db, c.var.principal, organization_id, id);
  const row = await updateManageable(c, organization_id, id, references.grantableAccessRoleIds, softDeleted(), "staff_member.deleted");
  return c.json(serializeStaffMember(row), 200);
};
