import type { AppRouteHandler } from "@/platform/http/env";
import { forbidden } from "@/problems/problem";
import { payLines as computePayLines } from "./pay-lines.data";
import type { PayLinesRoute } from "./pay-lines.routes";

export const payLines: AppRouteHandler<PayLinesRoute> = async (c) => {
  const { startDate, endDate, employeeId, locationId } = c.req.valid("query");
  const { organizationId, ownStaffMemberId } = c.var.scope;
  if (ownStaffMemberId && employeeId !== undefined && employeeId !== ownStaffMemberId) {
    throw forbidden("This operation needs the SHIFT_READ permission to read another staff member's pay.");
  }
  const filter = { organizationId, startDate, endDate, employeeId: ownStaffMemberId ?? employeeId, locationId };
  return c.json(await computePayLines(c.var.db, filter), 200);
};
