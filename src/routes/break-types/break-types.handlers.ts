import { and, eq } from "drizzle-orm";
import { breakTypes, locations } from "../../../drizzle/schema";
import type { Database } from "../../lib/db";
import { newId } from "../../lib/ids";
import { keysetPage, pageResult } from "../../lib/pagination";
import { notFound } from "../../lib/problem";
import { inOrganization, softDeleted } from "../../lib/tenancy";
import type { AppRouteHandler } from "../../lib/types";
import type * as routes from "./break-types.routes";
import { serializeBreakType } from "./break-types.schemas";

async function assertLocation(db: Database, organizationId: string, locationId: string) {
  const [location] = await db
    .select({ id: locations.id })
    .from(locations)
    .where(and(inOrganization(locations, organizationId), eq(locations.id, locationId)));
  if (!location) throw notFound("Location");
}

const ofLocation = (organizationId: string, locationId: string, breakId: string) =>
  and(inOrganization(breakTypes, organizationId), eq(breakTypes.locationId, locationId), eq(breakTypes.id, breakId));

export const list: AppRouteHandler<routes.ListRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  const query = c.req.valid("query");
  await assertLocation(c.var.db, organization_id, id);
  const page = keysetPage(breakTypes, query);
  const rows = await c.var.db
    .select()
    .from(breakTypes)
    .where(and(inOrganization(breakTypes, organization_id, { includeDeleted: true }), eq(breakTypes.locationId, id), page.where))
    .orderBy(page.orderBy)
    .limit(page.limit);
  return c.json(pageResult(c, rows, query.limit).map(serializeBreakType), 200);
};

export const create: AppRouteHandler<routes.CreateRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  await assertLocation(c.var.db, organization_id, id);
  const now = new Date();
  const [row] = await c.var.db
    .insert(breakTypes)
    .values({ id: newId(), organizationId: organization_id, locationId: id, ...c.req.valid("json"), createdAt: now, updatedAt: now })
    .returning();
  return c.json(serializeBreakType(row!), 201);
};

export const patch: AppRouteHandler<routes.PatchRoute> = async (c) => {
  const { organization_id, id, breakId } = c.req.valid("param");
  const [row] = await c.var.db
    .update(breakTypes)
    .set({ ...c.req.valid("json"), updatedAt: new Date() })
    .where(ofLocation(organization_id, id, breakId))
    .returning();
  if (!row) throw notFound("Break type");
  return c.json(serializeBreakType(row), 200);
};

export const remove: AppRouteHandler<routes.RemoveRoute> = async (c) => {
  const { organization_id, id, breakId } = c.req.valid("param");
  const [row] = await c.var.db.update(breakTypes).set(softDeleted()).where(ofLocation(organization_id, id, breakId)).returning();
  if (!row) throw notFound("Break type");
  return c.json(serializeBreakType(row), 200);
};
