import { authorize } from "@/auth/authorize";
import { jsonBody, jsonContent, OrganizationParams, problems } from "@/platform/openapi/helpers";
import { defineRoute } from "@/platform/routes/define-route";
import { PayrollSettings, PayrollSettingsPut } from "./payroll-settings.schemas";

const path = "/api/organizations/{organization_id}/payroll-settings";
const tags = ["Pay"];

export const getPayrollSettings = defineRoute({
  method: "get",
  path,
  operationId: "getPayrollSettings",
  flags: { scope: "organization" },
  tags,
  summary: "Retrieve the payroll settings",
  description:
    "The organization's payroll provider (ADP_WFN, GUSTO, CHECK, PAYCHEX or null), the ADP company code and batch id, " +
    "and the earning code each line kind is exported under (`GET …/pay-periods/{periodId}/payroll?format=`), with the " +
    "provider's defaults. Until set: no provider and no codes. Staff members carry their ids at each provider in " +
    "`payrollIds`. Needs SHIFT_READ.",
  middleware: [authorize("SHIFT_READ")] as const,
  request: { params: OrganizationParams },
  responses: { 200: jsonContent(PayrollSettings, "The payroll settings"), ...problems("ORGANIZATION_NOT_FOUND") },
});

export const putPayrollSettings = defineRoute({
  method: "put",
  path,
  operationId: "putPayrollSettings",
  flags: { scope: "organization" },
  tags,
  summary: "Replace the payroll settings",
  description:
    "Replaces the settings whole. `earningCodes` maps a line kind (`REGULAR`, `OVERTIME`, `DOUBLE_TIME`, " +
    "`MEAL_PENALTY`, `PREDICTABILITY`, `REST`, `TIME_OFF`, `HOLIDAY`, `PENALTY`, `MINIMUM_ENGAGEMENT`, `SPREAD_OF_HOURS`, `SPLIT_SHIFT`, `REPORTING_TIME`, `CALL_IN`), a kind and its rule (`OVERTIME:DAILY_OVERTIME`) " +
    "or time off by policy type (`TIME_OFF:Sick`) to the provider's code; the most specific key wins. Left out, the " +
    "provider's defaults are stored: only what the provider itself names (Gusto's pay classifications Regular, " +
    "Overtime, Double overtime; Check's earning types hourly, overtime, double_overtime, pto, sick, paid_holiday; " +
    "ADP's Reg Hours and O/T Hours columns; Paychex Flex's default pay components) — a kind without one (a meal " +
    "premium, a Fair Workweek premium, ADP's company-defined Hours 3 codes) is the organization's to map, and a " +
    "payroll file needing it is refused with 409 `PAYROLL_MAPPING_INCOMPLETE` naming it, never guessed. Records " +
    "`payroll_settings.updated`. Needs ORGANIZATION_ADMIN.",
  middleware: [authorize("ORGANIZATION_ADMIN")] as const,
  request: { params: OrganizationParams, body: jsonBody(PayrollSettingsPut) },
  responses: { 200: jsonContent(PayrollSettings, "The payroll settings"), ...problems("ORGANIZATION_NOT_FOUND") },
});

export type GetPayrollSettingsRoute = typeof getPayrollSettings;
export type PutPayrollSettingsRoute = typeof putPayrollSettings;
