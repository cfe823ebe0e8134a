import { payLines as computePayLines } from "@/data/pay/pay-lines.data";
import type { AppRouteHandler } from "@/platform/http/env";
import { textStream } from "@/platform/http/json-stream";
import { setNextLink } from "@/platform/http/pagination";
import { forbidden } from "@/problems/problem";
import type { PayLinesRoute } from "./pay-lines.routes";

export const payLines: AppRouteHandler<PayLinesRoute> = async (c) => {
  const { startDate, endDate, employeeId, locationId, limit, cursor } = c.req.valid("query");
  const { organizationId, ownStaffMemberId } = c.var.scope;
  if (ownStaffMemberId && employeeId !== undefined && employeeId !== ownStaffMemberId) {
    throw forbidden("This operation needs the SHIFT_READ permission to read another staff member's pay.");
  }
  const filter = { organizationId, startDate, endDate, employeeId: ownStaffMemberId ?? employeeId, locationId };
  const { pieces, next } = await computePayLines(c.var.db, filter, { limit, cursor });
  if (next) setNextLink(c, { cursor: next });
  // Streamed: the bytes c.json would answer, written employee by employee (a page of 500 is megabytes of JSON).
  return c.body(textStream(pieces), 200, { "Content-Type": "application/json" }) as never;
};
