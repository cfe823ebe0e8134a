import type { AppRouteHandler } from "@/platform/http/env";
import { forbidden } from "@/problems/problem";
import { readLaborCost } from "./labor-cost.data";
import type { LaborCostRoute } from "./labor-cost.routes";

export const laborCost: AppRouteHandler<LaborCostRoute> = async (c) => {
  const { startDate, endDate, groupBy, employeeId, locationId } = c.req.valid("query");
  const { organizationId, ownStaffMemberId } = c.var.scope;
  if (ownStaffMemberId && employeeId !== undefined && employeeId !== ownStaffMemberId) {
    throw forbidden("This operation needs the SHIFT_READ permission to read another staff member's labor cost.");
  }
  const filter = { organizationId, startDate, endDate, employeeId: ownStaffMemberId ?? employeeId, locationId };
  return c.json(await readLaborCost(c.var.db, filter, groupBy), 200);
};
