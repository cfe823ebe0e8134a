import { softDeleted } from "@/data/tenancy";
import { getLive, listPage } from "@/platform/crud/tenant-queries";
import type { AppRouteHandler } from "@/platform/http/env";
import { forbidden } from "@/problems/problem";
import { assertReferences, changeRate, createRate, rateMatch, ratesOf, resolveFor, wageRateRecords } from "./wage-rates.data";
import type * as routes from "./wage-rates.routes";
import { serializeWageRate } from "./wage-rates.schemas";

export const list: AppRouteHandler<routes.ListRoute> = async (c) => {
  const { organizationId, ownStaffMemberId } = c.var.scope;
  const query = c.req.valid("query");
  if (ownStaffMemberId !== null && query.employeeId !== undefined && query.employeeId !== ownStaffMemberId) return c.json([], 200);
  const employeeId = ownStaffMemberId ?? query.employeeId;
  const filter = employeeId === undefined ? undefined : ratesOf(employeeId);
  const rows = await listPage(c, c.var.db, wageRateRecords, organizationId, query, filter);
  return c.json(rows.map(serializeWageRate), 200);
};

export const get: AppRouteHandler<routes.GetRoute> = async (c) => {
  const { organizationId, ownStaffMemberId } = c.var.scope;
  const row = await getLive(c, wageRateRecords, organizationId, rateMatch(c.req.valid("param").id, ownStaffMemberId), "Wage rate");
  return c.json(serializeWageRate(row), 200);
};

export const resolve: AppRouteHandler<routes.ResolveRoute> = async (c) => {
  const { organizationId, ownStaffMemberId } = c.var.scope;
  const query = c.req.valid("query");
  if (ownStaffMemberId !== null && query.employeeId !== ownStaffMemberId) {
    throw forbidden("Without EMPLOYEE_WRITE a staff member resolves only their own rate.");
  }
  return c.json(await resolveFor(c.var.db, organizationId, query), 200);
};

export const create: AppRouteHandler<routes.CreateRoute> = async (c) => {
  const { organizationId } = c.var.scope;
  const body = c.req.valid("json");
  await assertReferences(c.var.db, organizationId, body);
  const row = await createRate(c, organizationId, body);
  return c.json(serializeWageRate(row), 201);
};

export const patch: AppRouteHandler<routes.PatchRoute> = async (c) => {
  const { organizationId } = c.var.scope;
  const row = await changeRate(c, organizationId, c.req.valid("param").id, c.req.valid("json"), "wage_rate.updated");
  return c.json(serializeWageRate(row), 200);
};

export const remove: AppRouteHandler<routes.RemoveRoute> = async (c) => {
  const { organizationId } = c.var.scope;
  const { active, deletedAt } = softDeleted();
  const row = await changeRate(c, organizationId, c.req.valid("param").id, { active, deletedAt }, "wage_rate.deleted");
  return c.json(serializeWageRate(row), 200);
};
