import { authorize } from "@/auth/authorize";
import { jsonContent, OrganizationParams, problems } from "@/platform/openapi/helpers";
import { defineRoute } from "@/platform/routes/define-route";
import { QualifiedOvertimeQuery, QualifiedOvertimeReport } from "./qualified-overtime.schemas";

export const qualifiedOvertime = defineRoute({
  method: "get",
  path: "/api/organizations/{organization_id}/reports/qualified-overtime",
  operationId: "getQualifiedOvertimeReport",
  flags: { scope: "organization", list: true },
  tags: ["Pay"],
  summary: "Qualified overtime of a year",
  description:
    "Per staff member, the year's qualified overtime compensation — the figure Form W-2 reports separately for tax " +
    'years 2025–2028 under the One Big Beautiful Bill Act (Pub. L. 119-21 §70202, adding IRC §225: "overtime ' +
    "compensation paid to an individual required under section 7 of the Fair Labor Standards Act … in excess of the " +
    "regular rate\"): 0.5 × each FLSA workweek's regular rate for its hours over 40 (29 U.S.C. 207(a)(1)), never " +
    "overtime owed under a state rule alone (California's daily overtime under 40 hours a week) nor double time " +
    "beyond the half. Read from the latest payroll of every closed pay period whose endDate falls in `year` (a " +
    "period counts once, in the year it ends, as its pay date follows its end; a re-closed period counts its latest " +
    "version, adjustments included; a period reopened is left out until it is closed again), never recomputed: `periods` lists each period's amount, oldest first. Staff " +
    "members with no qualified overtime in the year are left out; a payroll closed before the figure was computed " +
    "counts 0. The amount is what the payroll paid: the $12,500 deduction cap and its phase-out are the employee's " +
    "return's, not the W-2's. Bare array ordered by employeeId, paged (`limit`, `cursor`, `Link: rel=\"next\"`). " +
    "Needs SHIFT_READ.",
  middleware: [authorize("SHIFT_READ")] as const,
  request: { params: OrganizationParams, query: QualifiedOvertimeQuery },
  responses: {
    200: jsonContent(QualifiedOvertimeReport, "The staff members' qualified overtime"),
    ...problems("ORGANIZATION_NOT_FOUND"),
  },
});

export type QualifiedOvertimeRoute = typeof qualifiedOvertime;
