import { z } from "@hono/zod-openapi";
import { LABOR_COST_KEYS } from "@/domain/labor-cost";
import { queryIdParam } from "@/platform/openapi/helpers";
import { CalendarDate } from "@/platform/schemas/validation";

export const LaborCostQuery = z.object({
  startDate: CalendarDate.openapi({ param: { name: "startDate", in: "query" } }),
  endDate: CalendarDate.openapi({ param: { name: "endDate", in: "query" } }),
  groupBy: z
    .string()
    .max(100)
    .optional()
    .openapi({
      param: { name: "groupBy", in: "query" },
      description: `A comma-separated subset of ${LABOR_COST_KEYS.join(", ")}, in the order rows are keyed; empty or absent: one row.`,
      example: "date,costCode",
    }),
  employeeId: queryIdParam("employeeId"),
  locationId: queryIdParam("locationId"),
  organizationId: queryIdParam("organizationId", "A partner-level token names the organization."),
});

const figures = {
  regularMinutes: z.number().int(),
  overtimeMinutes: z.number().int(),
  doubleTimeMinutes: z.number().int(),
  penaltyHours: z.number().openapi({
    description:
      "Hours of meal penalties and Fair Workweek premiums (PREDICTABILITY, REST). An award's or a state's lines (PENALTY, " +
      "HOLIDAY, MINIMUM_ENGAGEMENT, SPREAD_OF_HOURS, SPLIT_SHIFT, REPORTING_TIME, CALL_IN) are money in premiumAmount " +
      "and laborCost, not hours here.",
  }),
  timeOffHours: z.number().openapi({ description: "Hours of paid time off (a row of its own: no location, role or cost code)." }),
  premiumAmount: z
    .number()
    .openapi({ description: "The amount of premium lines: every kind but REGULAR, OVERTIME, DOUBLE_TIME and TIME_OFF." }),
  laborCost: z.number().openapi({ description: "The amount of every line of the row, summed in cents." }),
};

const key = (description: string) => z.string().nullable().optional().openapi({ description });

export const LaborCostRow = z
  .object({
    date: z.string().optional().openapi({ format: "date", description: "With groupBy date: the lines' workday." }),
    locationId: key("With groupBy location: the location of the shift charged; null for time off."),
    roleId: key("With groupBy role: the role of the shift charged; null for time off."),
    costCodeId: key("With groupBy costCode: the cost code of the shift charged; null for time off or a shift without one."),
    employeeId: z.string().optional().openapi({ description: "With groupBy employee: the staff member." }),
    ...figures,
  })
  .openapi("LaborCostRow", { description: "One group's figures: only the keys asked for are present." });

export const LaborCostTotals = z.object(figures).openapi("LaborCostTotals");

export const LaborCost = z
  .object({
    startDate: z.string(),
    endDate: z.string(),
    groupBy: z.array(z.enum(LABOR_COST_KEYS)),
    rows: z.array(LaborCostRow),
    totals: LaborCostTotals,
  })
  .openapi("LaborCost");
