import { z } from "@hono/zod-openapi";
import { queryIdParam } from "@/platform/openapi/helpers";
import { CalendarDate } from "@/platform/schemas/validation";

const KINDS = ["REGULAR", "OVERTIME", "DOUBLE_TIME", "MEAL_PENALTY", "TIME_OFF"] as const;
const RULES = [
  "DAILY_OVERTIME",
  "DAILY_DOUBLE_TIME",
  "WEEKLY_OVERTIME",
  "SEVENTH_DAY_OVERTIME",
  "SEVENTH_DAY_DOUBLE_TIME",
  "MEAL_BREAK",
] as const;

export const PayLine = z
  .object({
    date: z.string().openapi({ format: "date", description: "The workday: the business date the shift started on." }),
    shiftId: z.string().nullable().openapi({ description: "Null for meal penalties and time off." }),
    kind: z.enum(KINDS),
    minutes: z.number().int(),
    hours: z.number(),
    rate: z.number().nullable().openapi({ description: "hourlyWage × the kind's multiplier; null for a salaried staff member." }),
    amount: z.number().nullable().openapi({ description: "rate × hours, rounded to cents half away from zero; null without a wage." }),
    rule: z.enum(RULES).nullable().openapi({ description: "The rule that made the line; null for regular time and time off." }),
    ruleSetId: z.string().nullable().openapi({ description: "The rule set whose rules made the line; null where none governs." }),
  })
  .openapi("PayLine");

const payTotalsShape = {
  regularMinutes: z.number().int(),
  overtimeMinutes: z.number().int(),
  doubleTimeMinutes: z.number().int(),
  penaltyHours: z.number(),
  timeOffHours: z.number(),
  grossPay: z.number(),
};

export const PayTotals = z.object(payTotalsShape).openapi("PayTotals");

/** An employee's pay: their identifiers, totals and lines (shared by pay lines and payroll). */
export const employeePayShape = {
  employeeId: z.string(),
  externalId: z.string().nullable(),
  externalPayrollId: z.string().nullable(),
  currencyCode: z.string(),
  ...payTotalsShape,
  lines: z.array(PayLine),
};

export const EmployeePay = z.object(employeePayShape).openapi("EmployeePay");

export const PayLines = z
  .object({ startDate: z.string(), endDate: z.string(), employees: z.array(EmployeePay), totals: PayTotals })
  .openapi("PayLines");

/** The signed difference of an employee's totals from the previous close's. */
export const PayrollAdjustment = z
  .object({ employeeId: z.string(), ...payTotalsShape })
  .openapi("PayrollAdjustment", { description: "The signed difference from the previous version's figures." });

export const PayLinesQuery = z.object({
  startDate: CalendarDate.openapi({ param: { name: "startDate", in: "query" } }),
  endDate: CalendarDate.openapi({ param: { name: "endDate", in: "query" } }),
  employeeId: queryIdParam("employeeId"),
  locationId: queryIdParam("locationId"),
  organizationId: queryIdParam("organizationId", "A partner-level token names the organization."),
});
