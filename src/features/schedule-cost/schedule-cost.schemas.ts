import { z } from "@hono/zod-openapi";
import { idParam } from "@/platform/openapi/helpers";
import { queryBoolean } from "@/platform/schemas/list-query";
import { CalendarDate } from "@/platform/schemas/validation";

export const ScheduleCostParams = z.object({
  organizationId: idParam("organizationId", "Organization id"),
  locationId: idParam("locationId", "Location id"),
});

export const ScheduleCostQuery = z.object({
  startDate: CalendarDate.openapi({
    param: { name: "startDate", in: "query" },
    example: "2026-03-16",
    description: "First local date of the location (YYYY-MM-DD, inclusive).",
  }),
  endDate: CalendarDate.openapi({
    param: { name: "endDate", in: "query" },
    example: "2026-03-22",
    description: "Last local date of the location (YYYY-MM-DD, inclusive).",
  }),
  includeDrafts: queryBoolean(
    "`true` counts draft entries too (everywhere the staff members are scheduled); default `false`: published entries only.",
  ),
});

const minutes = (description: string) => z.number().int().openapi({ example: 480, description });
const amountOrNull = (description: string, example: number) => z.number().nullable().openapi({ example, description });

const figureFields = {
  scheduledMinutes: minutes("Payable minutes counted: regular + overtime + double time (worked shifts and entries to come)."),
  regularMinutes: minutes("Regular minutes."),
  overtimeMinutes: minutes("Overtime minutes (daily, weekly and seventh-day)."),
  doubleTimeMinutes: minutes("Double-time minutes."),
  penaltyHours: z.number().openapi({
    example: 1,
    description:
      "Meal penalty hours (paid at the workweek's regular rate), as pay's penaltyHours counts them. An award's or a state's " +
      "lines (PENALTY, HOLIDAY, MINIMUM_ENGAGEMENT, SPREAD_OF_HOURS, SPLIT_SHIFT, REPORTING_TIME, CALL_IN) are money in " +
      "laborCost, not hours here.",
  }),
  premiumAmount: z.number().openapi({
    example: 15,
    description:
      "Fair Workweek premiums, to the cent (part of laborCost): the recorded PREDICTABILITY premiums of the location's " +
      "changed entries dated on the date (GET …/schedule-changes), and the REST premiums the projected shifts starting " +
      "at the location inside their pack's rest window would earn — as pay lines of kinds PREDICTABILITY and REST.",
  }),
  laborCost: z.number().openapi({
    example: 1234.56,
    description: "Σ of the pay lines' amounts (regular, overtime, double time, meal penalties, Fair Workweek premiums), to the cent.",
  }),
  sales: amountOrNull("Σ of the FORECAST SALES demand intervals starting on the date (local); null when there are none.", 5000),
  laborPercent: amountOrNull("laborCost ÷ sales × 100, to 2 decimals; null without sales.", 24.69),
  salesPerLaborHour: amountOrNull("sales ÷ (scheduledMinutes ÷ 60), to 2 decimals; null without sales or minutes.", 81.3),
  overTarget: z
    .boolean()
    .nullable()
    .openapi({
      example: false,
      description:
        "laborPercent above the location's laborPercent target, or salesPerLaborHour below its salesPerLaborHour target; " +
        "null without sales or without targets.",
    }),
};

const ScheduleCostFigures = z.object(figureFields).openapi("ScheduleCostFigures");

const ScheduleCostDay = z
  .object({ date: CalendarDate.openapi({ description: "A local date of the location." }), ...figureFields })
  .openapi("ScheduleCostDay");

export const ScheduleCost = z
  .object({
    locationId: z.string(),
    startDate: CalendarDate,
    endDate: CalendarDate,
    includeDrafts: z.boolean(),
    currencyCode: z.string().openapi({ example: "USD", description: "The organization's currency." }),
    targets: z
      .object({
        laborPercent: z.number().nullable().openapi({ example: 25 }),
        salesPerLaborHour: z.number().nullable().openapi({ example: 80 }),
      })
      .openapi({ description: "The location's labor targets (GET …/labor-targets), each null until set." }),
    dates: z.array(ScheduleCostDay).openapi({ description: "Every date of the range, in order (zeros where nothing is scheduled)." }),
    totals: ScheduleCostFigures,
  })
  .openapi("ScheduleCost");
