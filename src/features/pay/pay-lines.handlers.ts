import type { AppRouteHandler } from "@/platform/http/env";
import { setNextLink } from "@/platform/http/pagination";
import { forbidden } from "@/problems/problem";
import { payLines as computePayLines } from "./pay-lines.data";
import type { PayLinesRoute } from "./pay-lines.routes";

export const payLines: AppRouteHandler<PayLinesRoute> = async (c) => {
  const { startDate, endDate, employeeId, locationId, limit, cursor } = c.req.valid("query");
  const { organizationId, ownStaffMemberId } = c.var.scope;
  if (ownStaffMemberId && employeeId !== undefined && employeeId !== ownStaffMemberId) {
    throw forbidden("This operation needs the SHIFT_READ permission to read another staff member's pay.");
  }
  const filter = { organizationId, startDate, endDate, employeeId: ownStaffMemberId ?? employeeId, locationId };
  const { body, next } = await computePayLines(c.var.db, filter, { limit, cursor });
  if (next) setNextLink(c, { cursor: next });
  return c.json(body, 200);
};
