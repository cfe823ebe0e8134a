import type { Database } from "@/data/client";
import { newId } from "@/data/ids";
import { jobFaultOf } from "@/data/jobs/jobs.data";
import { filesOf } from "@/data/shards";
import { softDeleted } from "@/data/tenancy";
import { findLocation, findStaffMember } from "@/data/tenant-records";
import { grantsForStaff, staffWithIds } from "@/data/time-off/grants-now.data";
import { getLive, listPage } from "@/platform/crud/tenant-queries";
import { requestNow } from "@/platform/http/clock";
import { ifMatchOf, setETag } from "@/platform/http/conditional";
import type { AppRouteHandler } from "@/platform/http/env";
import { serializeJob } from "@/wire/job.schemas";
import { serializeLocation } from "@/wire/location.schemas";
import {
  atLocation,
  insertStaffMember,
  locationsOf,
  staffFilters,
  staffMemberRecords,
  updateManageable,
  withExternalId,
} from "./staff-members.data";
import { liveAccessRole } from "./staff-members.guards";
import type * as routes from "./staff-members.routes";
import { type StaffMemberRow, serializeStaffMember } from "./staff-members.schemas";
import { newStaffMemberRow, toColumns } from "./staff-members-columns.data";
import { defaultAccessRole, resolveMember, resolveReferences } from "./staff-members-references.data";
import { syncStaffMembers } from "./staff-members-sync.data";
import { checkSyncAsJob, startStaffSyncJob, syncInRequestMax, syncJobPageOf } from "./staff-sync-job.data";
import { readWarningBasis, wageWarningsOf } from "./staff-wage-warnings.data";

/** The rows read beside the organization's warning basis, answered with their wage warnings (staff-wage-warnings.data). */
async function withWarnings(db: Database, organizationId: string, reading: Promise<StaffMemberRow[]>) {
  const [rows, basis] = await Promise.all([reading, readWarningBasis(db, organizationId)]);
  const warnings = await wageWarningsOf(db, organizationId, basis, rows);
  return rows.map((row) => serializeStaffMember(row, warnings.get(row.id)));
}

export const list: AppRouteHandler<routes.ListRoute> = async (c) => {
  const { organization_id } = c.req.valid("param");
  const query = c.req.valid("query");
  const page = listPage(c, c.var.db, staffMemberRecords, organization_id, query, ...staffFilters(query));
  return c.json(await withWarnings(c.var.db, organization_id, page), 200);
};

export const getOne: AppRouteHandler<routes.GetOneRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  const row = getLive(c, staffMemberRecords, organization_id, id, "Staff member");
  const [member] = await withWarnings(
    c.var.db,
    organization_id,
    row.then((r) => [r]),
  );
  return c.json(member!, 200);
};

export const getByExternalId: AppRouteHandler<routes.GetByExternalIdRoute> = async (c) => {
  const { organization_id, externalId } = c.req.valid("param");
  const row = getLive(c, staffMemberRecords, organization_id, withExternalId(externalId), "Staff member");
  const [member] = await withWarnings(
    c.var.db,
    organization_id,
    row.then((r) => [r]),
  );
  return c.json(member!, 200);
};

export const listLocations: AppRouteHandler<routes.ListLocationsRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  const member = await findStaffMember(c.var.db, organization_id, id);
  const rows = await locationsOf(c.var.db, organization_id, member.locationIds);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const assigned = member.locationIds.flatMap((locationId) => byId.get(locationId) ?? []);
  return c.json(assigned.map(serializeLocation), 200);
};

export const listForLocation: AppRouteHandler<routes.ListForLocationRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  const query = c.req.valid("query");
  await findLocation(c.var.db, organization_id, id);
  const page = listPage(c, c.var.db, staffMemberRecords, organization_id, query, atLocation(id));
  return c.json(await withWarnings(c.var.db, organization_id, page), 200);
};

export const create: AppRouteHandler<routes.CreateRoute> = async (c) => {
  const { organization_id } = c.req.valid("param");
  const body = c.req.valid("json");
  const now = await requestNow(c);
  const id = newId(now.getTime());
  const [references, grants] = await Promise.all([
    resolveReferences(c.var.db, c.var.principal, organization_id, [body], (_, field) => field),
    grantsForStaff(c.var.db, organization_id, staffWithIds([id]), now),
  ]);
  const accessRoleId = references.accessRoleIds[0] ?? defaultAccessRole(references, "accessRoleId");
  const row = newStaffMemberRow(organization_id, id, accessRoleId, body, now);
  const created = await insertStaffMember(c.var, row, accessRoleId, now, grants);
  setETag(c, created);
  return c.json(serializeStaffMember(created), 201);
};

export const sync: AppRouteHandler<routes.SyncRoute> = async (c) => {
  const { organization_id } = c.req.valid("param");
  const body = c.req.valid("json");
  if (body.records.length <= syncInRequestMax(c.env)) {
    const result = await syncStaffMembers(c.var, organization_id, body);
    return c.json({ ...result, records: result.records.map((row) => serializeStaffMember(row)) }, 200);
  }
  // Larger: the same checks now (a 4xx writes nothing), then a BULK job writes it a page at a time.
  const pageRecords = syncJobPageOf(c.env);
  await checkSyncAsJob(c.var, organization_id, body, pageRecords);
  const files = filesOf(c.env, c.var.shard);
  const job = await startStaffSyncJob(c.var, files, c.env.BULK_WORKFLOW, organization_id, body, {
    pageRecords,
    fault: jobFaultOf(c.env),
  });
  return c.json(serializeJob(job), 202, { Location: `/api/organizations/${organization_id}/jobs/${job.id}` });
};

export const patch: AppRouteHandler<routes.PatchRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  const body = c.req.valid("json");
  const db = c.var.db;
  // A change of what time-off inclusion reads may include the member in a policy: its grant comes with the change.
  const mayInclude = body.roleIds !== undefined || body.locationIds !== undefined || body.employmentType !== undefined;
  const [references, grants] = await Promise.all([
    resolveReferences(db, c.var.principal, organization_id, [body], (_, field) => field, { memberId: id }),
    mayInclude ? grantsForStaff(db, organization_id, staffWithIds([id]), await requestNow(c)) : [],
  ]);
  const accessRoleId = references.accessRoleIds[0];
  const changes = {
    ...toColumns(body),
    ...(accessRoleId && { accessRoleId: liveAccessRole.sql(organization_id, accessRoleId) }),
  };
  const grantable = references.grantableAccessRoleIds;
  const row = await updateManageable(c.var, organization_id, id, grantable, changes, "staff_member.updated", ifMatchOf(c), grants);
  setETag(c, row);
  return c.json(serializeStaffMember(row), 200);
};

export const remove: AppRouteHandler<routes.RemoveRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  const references = await resolveMember(c.var.db, c.var.principal, organization_id, id);
  const grantable = references.grantableAccessRoleIds;
  const row = await updateManageable(c.var, organization_id, id, grantable, softDeleted(), "staff_member.deleted", ifMatchOf(c));
  setETag(c, row);
  return c.json(serializeStaffMember(row), 200);
};
