import { and, eq, sql } from "drizzle-orm";
import { locations, staffMembers } from "../../../drizzle/schema";
import { uniquely } from "../../lib/db-errors";
import { newId } from "../../lib/ids";
import { inJsonList, jsonArrayContains } from "../../lib/json-list";
import { findLive, listPage, softDeleteLive, updateLive } from "../../lib/tenant-queries";
import { inOrganization } from "../../lib/tenancy";
import type { AppRouteHandler } from "../../lib/types";
import { serializeLocation } from "../locations/locations.schemas";
import { newStaffMemberRow, toColumns } from "./staff-members.columns";
import { defaultAccessRole, resolveReferences } from "./staff-members.references";
import type * as routes from "./staff-members.routes";
import { serializeStaffMember } from "./staff-members.schemas";
import { syncStaffMembers } from "./staff-members.sync";

const EXTERNAL_ID_TAKEN = ["EXTERNAL_ID_TAKEN", "Another staff member of this organization has that externalId."] as const;


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
  return c.json(serializeStaffMember(await findLive(c.var.db, staffMembers, organization_id, id, "Staff member")), 200);
};

export const getByExternalId: AppRouteHandler<routes.GetByExternalIdRoute> = async (c) => {
  const { organization_id, externalId } = c.req.valid("param");
  const row = await findLive(c.var.db, staffMembers, organization_id, eq(staffMembers.externalId, externalId), "Staff member");
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
  const references = await resolveReferences(c.var.db, c.var.principal, organization_id, [body], (_, field) => field);
  const accessRoleId = references.accessRoleIds[0] ?? defaultAccessRole(references, "accessRoleId");
  const now = new Date();
  const row = newStaffMemberRow(organization_id, newId(now.getTime()), accessRoleId, body, now);
  const [created] = await uniquely(c.var.db.insert(staffMembers).values(row).returning(), ...EXTERNAL_ID_TAKEN);
  return c.json(serializeStaffMember(created!), 201);
};

export const sync: AppRouteHandler<routes.SyncRoute> = async (c) => {
  const { organization_id } = c.req.valid("param");
  const result = await syncStaffMembers(c.var.db, c.var.principal, organization_id, c.req.valid("json"));
  return c.json({ ...result, records: result.records.map(serializeStaffMember) }, 200);
};

export const patch: AppRouteHandler<routes.PatchRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  const body = c.req.valid("json");
  const references = await resolveReferences(c.var.db, c.var.principal, organization_id, [body], (_, field) => field);
  const accessRoleId = references.accessRoleIds[0];
  const changes = { ...toColumns(body), ...(accessRoleId && { accessRoleId }), updatedAt: new Date() };
  const row = await uniquely(updateLive(c.var.db, staffMembers, organization_id, id, changes, "Staff member"), ...EXTERNAL_ID_TAKEN);
  return c.json(serializeStaffMember(row), 200);
};

export const remove: AppRouteHandler<routes.RemoveRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  return c.json(serializeStaffMember(await softDeleteLive(c.var.db, staffMembers, organization_id, id, "Staff member")), 200);
};
