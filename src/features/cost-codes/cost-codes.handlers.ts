import type { Database } from "@/data/client";
import { softDeleted } from "@/data/tenancy";
import { placementRefusal } from "@/domain/cost-codes";
import { getLive, insertRecord, listPage, updateLive } from "@/platform/crud/tenant-queries";
import type { AppRouteHandler } from "@/platform/http/env";
import {
  type Assignment,
  assignmentOf,
  costCodeRecords,
  liveCostCode,
  placedDepth,
  placementOf,
  refusalsOfCostCode,
  replaceAssignment,
  shiftDescendants,
} from "./cost-codes.data";
import { costCodeCycle, costCodeGuards, costCodeTooDeep } from "./cost-codes.guards";
import type * as routes from "./cost-codes.routes";
import { serializeCostCode } from "./cost-codes.schemas";

/** The precise refusal of a placement, read first; the write's guard holds it under concurrency. */
async function refuseMisplacement(db: Database, organizationId: string, parentId: string | null, movingId?: string) {
  const refusal = placementRefusal(await placementOf(db, organizationId, parentId, movingId));
  if (refusal === "CYCLE") throw costCodeCycle();
  if (refusal === "TOO_DEEP") throw costCodeTooDeep();
}

export const list: AppRouteHandler<routes.ListRoute> = async (c) => {
  const { organization_id } = c.req.valid("param");
  const rows = await listPage(c, c.var.db, costCodeRecords, organization_id, c.req.valid("query"));
  return c.json(rows.map(serializeCostCode), 200);
};

export const getOne: AppRouteHandler<routes.GetOneRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  return c.json(serializeCostCode(await getLive(c, costCodeRecords, organization_id, id, "Cost code")), 200);
};

export const create: AppRouteHandler<routes.CreateRoute> = async (c) => {
  const { organization_id } = c.req.valid("param");
  const { parentId = null, ...fields } = c.req.valid("json");
  await refuseMisplacement(c.var.db, organization_id, parentId);
  const values = { ...fields, parentId, depth: placedDepth(organization_id, parentId) };
  const row = await refusalsOfCostCode(insertRecord(c, costCodeRecords, organization_id, values, "cost_code.created"));
  return c.json(serializeCostCode(row), 201);
};

export const patch: AppRouteHandler<routes.PatchRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  const changes = c.req.valid("json");
  const { parentId } = changes;
  if (parentId === undefined) {
    const row = await refusalsOfCostCode(updateLive(c, costCodeRecords, organization_id, id, changes, "Cost code", "cost_code.updated"));
    return c.json(serializeCostCode(row), 200);
  }
  await liveCostCode(c.var.db, organization_id, id);
  await refuseMisplacement(c.var.db, organization_id, parentId, id);
  const moved = { ...changes, depth: placedDepth(organization_id, parentId, id) };
  const row = await refusalsOfCostCode(
    updateLive(c, costCodeRecords, organization_id, id, moved, "Cost code", "cost_code.updated", (where) => ({
      before: [shiftDescendants(c.var.db, id, parentId, where)],
      events: [],
    })),
  );
  return c.json(serializeCostCode(row), 200);
};

export const remove: AppRouteHandler<routes.RemoveRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  const values = { ...softDeleted(), code: costCodeGuards.childless.sql() as unknown as string };
  const row = await refusalsOfCostCode(updateLive(c, costCodeRecords, organization_id, id, values, "Cost code", "cost_code.deleted"));
  return c.json(serializeCostCode(row), 200);
};

export const getAssignments: AppRouteHandler<routes.GetAssignmentsRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  const code = await liveCostCode(c.var.db, organization_id, id);
  return c.json({ costCodeId: id, ...(await assignmentOf(c.var.db, code)) }, 200);
};

export const putAssignments: AppRouteHandler<routes.PutAssignmentsRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  const body = c.req.valid("json");
  await liveCostCode(c.var.db, organization_id, id);
  const assignment: Assignment = body.all
    ? { all: true, employeeIds: [] }
    : { all: false, employeeIds: [...(body.employeeIds ?? [])].sort() };
  await replaceAssignment(c.var, organization_id, id, assignment);
  return c.json({ costCodeId: id, ...assignment }, 200);
};
