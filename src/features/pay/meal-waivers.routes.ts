import { authorize } from "@/auth/authorize";
import { jsonBody, jsonContent, problems } from "@/platform/openapi/helpers";
import { defineRoute } from "@/platform/routes/define-route";
import { MealWaiverParams, MealWaiverPut, MealWaivers } from "./meal-waivers.schemas";

const tags = ["Pay"];
const path = "/api/organizations/{organization_id}/staffmembers/{id}/meal-waivers";

const about =
  "A meal waiver is the staff member's written consent, dated, to skip a meal period the pay rules let be waived " +
  "(a period's `waivableUpToMinutes`; CALIFORNIA: the first on a workday of at most 6 h, the second of at most 12 h " +
  "and only when the first was not waived — Cal. Labor Code 512(a)). It is effective-dated like a wage rate: each " +
  "version governs the workdays from its effectiveFrom until the next version's; a version with both false revokes " +
  "the waivers from its date. Pay lines, payroll, labor cost, schedule cost and clock-out's MISSED_MEAL_BREAK read it.";

export const getMealWaivers = defineRoute({
  method: "get",
  path,
  operationId: "getMealWaivers",
  flags: { scope: "organization" },
  tags,
  summary: "Retrieve a staff member's meal waivers",
  description: `${about} Needs EMPLOYEE_READ, or the staff member's own token.`,
  middleware: [authorize("EMPLOYEE_READ", { self: "id" })] as const,
  request: { params: MealWaiverParams },
  responses: { 200: jsonContent(MealWaivers, "The waivers"), ...problems("STAFF_MEMBER_NOT_FOUND") },
});

export const putMealWaiver = defineRoute({
  method: "put",
  path,
  operationId: "putMealWaiver",
  flags: { scope: "organization" },
  tags,
  summary: "Record a staff member's meal waiver",
  description:
    `${about} Stores the version effective from \`effectiveFrom\` (one of the same date is replaced; the others stay as ` +
    "history) and answers every version. A date on or before the last date a closed pay period froze would change " +
    "frozen pay: 409 `PAY_PERIOD_CLOSED` naming `periodId`, nothing written. Records `staff_member.meal_waivers_updated` " +
    "when it changes something. Needs EMPLOYEE_WRITE.",
  middleware: [authorize("EMPLOYEE_WRITE")] as const,
  request: { params: MealWaiverParams, body: jsonBody(MealWaiverPut) },
  responses: { 200: jsonContent(MealWaivers, "Every version"), ...problems("STAFF_MEMBER_NOT_FOUND", "PAY_PERIOD_CLOSED") },
});

export type GetMealWaiversRoute = typeof getMealWaivers;
export type PutMealWaiverRoute = typeof putMealWaiver;
