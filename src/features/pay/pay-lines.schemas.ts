import { z } from "@hono/zod-openapi";
import { queryIdParam } from "@/platform/openapi/helpers";
import { PageQuery } from "@/platform/schemas/list-query";
import { CalendarDate } from "@/platform/schemas/validation";

const KINDS = [
  "REGULAR",
  "OVERTIME",
  "DOUBLE_TIME",
  "MEAL_PENALTY",
  "TIME_OFF",
  "PREDICTABILITY",
  "REST",
  "PENALTY",
  "HOLIDAY",
  "MINIMUM_ENGAGEMENT",
  "SPREAD_OF_HOURS",
  "SPLIT_SHIFT",
  "REPORTING_TIME",
  "CALL_IN",
] as const;
const RULES = [
  "DAILY_OVERTIME",
  "DAILY_DOUBLE_TIME",
  "WEEKLY_OVERTIME",
  "WEEKLY_DOUBLE_TIME",
  "SEVENTH_DAY_OVERTIME",
  "SEVENTH_DAY_DOUBLE_TIME",
  "CONSECUTIVE_OVERTIME",
  "MEAL_BREAK",
] as const;

export const PayLine = z
  .object({
    date: z.string().openapi({
      format: "date",
      description:
        "The workday the minutes were worked in, named by the local date on which it starts (a shift crossing the " +
        "rule set's workdayStartsAt has a line per workday).",
    }),
    shiftId: z.string().nullable().openapi({ description: "Null for meal penalties, premiums and time off." }),
    kind: z.enum(KINDS).openapi({
      description:
        "PREDICTABILITY: a Fair Workweek change premium (GET …/schedule-changes), dated by the changed entry's original " +
        "date; REST: a rest-between-shifts premium, dated by the shift worked inside the rest window. Premiums are pay, " +
        "not hours worked: no minute total counts them, they add to grossPay; hours are paid at the workweek's " +
        "regularRate (at the wage when nothing was worked that workweek), a flat amount is a line of 0 minutes and no rate. " +
        "PENALTY: an award's penalty rate or loading for minutes already paid as REGULAR or OVERTIME — only its extra part " +
        "(a casual's Sunday under AU_GENERAL_RETAIL: REGULAR at the wage plus PENALTY at 0.75 × the wage, 175 % in all); " +
        "HOLIDAY: the same on a public holiday of the location; MINIMUM_ENGAGEMENT: the minutes short of the award's " +
        "minimum engagement, paid at the rate of an ordinary hour when the shift ended. Those three are pay, not hours: no " +
        "minute total counts them; `rule` names the preset's rule (AU_GENERAL_RETAIL.SUNDAY, …CASUAL_LOADING, …EVENING, " +
        "…SATURDAY, …PUBLIC_HOLIDAY, …SUNDAY_OVERTIME, …PUBLIC_HOLIDAY_OVERTIME, …SHORT_REST_BETWEEN_SHIFTS, " +
        "…MINIMUM_ENGAGEMENT). SPREAD_OF_HOURS (US_NY): one hour at the minimum wage for a workday whose first start to " +
        "last end spans more than 10 hours (12 NYCRR 142-2.4), pay and not hours as well. SPLIT_SHIFT (CALIFORNIA.SPLIT_SHIFT): " +
        "a workday whose shifts are more than an hour apart earns one hour at the $16.90 state minimum wage, less what the " +
        "day's straight-time wages exceed the minimum wage for the hours worked (IWC Wage Orders §4(C), DLSE Manual " +
        "45.2.1): a line of 60 minutes at that reduced rate, none when the excess covers it. REPORTING_TIME " +
        "(CALIFORNIA.REPORTING_TIME, IWC Wage Orders §5(A)): a shift worked less than half of its scheduled length is " +
        "paid half of it (at least 2, at most 4 hours) at the regular rate — the minutes short. CALL_IN (US_NY.CALL_IN, " +
        "12 NYCRR 142-2.3): a shift is paid at least 4 hours, or its scheduled length if shorter, at the $17.00 minimum " +
        "wage — the minutes short. Both judge a shift answering a published schedule entry (the one attendance measures it " +
        "against: same staff member and location, its start within the entry or up to 2 hours before it, the entry " +
        "starting nearest); the scheduled length is the entry's less the unpaid break types it plans, and every shift " +
        "answering one entry counts toward it, the line on the first. All three are pay, not hours.",
    }),
    minutes: z
      .number()
      .int()
      .openapi({
        description:
          "Whole minutes: the basis of `amount`. A premium of hours (PREDICTABILITY, REST) shows its hours × 60 rounded, for " +
          "reading only: its amount is its exact `hours` × rate (a 15-minute cut at half pay is 0.125 h, 8 minutes shown).",
      }),
    hours: z.number().openapi({
      description:
        "minutes ÷ 60 shown to two decimals, for reading only: never the basis of `amount` — except a premium of hours " +
        "(PREDICTABILITY, REST), whose exact hours (to 4 decimals) are.",
    }),
    rate: z
      .number()
      .nullable()
      .openapi({
        description:
          "Per hour, shown to 4 decimals. REGULAR and TIME_OFF: the shift's hourly wage. OVERTIME and DOUBLE_TIME: that " +
          "wage + (multiplier − 1) × the workweek's regularRate. MEAL_PENALTY and premiums of hours: the workweek's " +
          "regularRate. A rate from the regular rate is computed from its exact value and only shown rounded. Null for a " +
          "salaried staff member.",
      }),
    amount: z
      .number()
      .nullable()
      .openapi({
        description:
          "amount = minutes ÷ 60 × the exact rate (a premium of hours: hours × the exact rate), rounded once, half away " +
          "from zero, to the minor units of the organization's currency (cents; whole yen; a dinar's thousandths) (a 301-minute line at rate 20 is 100.33, though its hours read 5.02; 9 h at 19 + ½ × 667 ÷ 49 " +
          "is 232.26, though 9 × the rate shown, 25.8061, is 232.2549). Null without a rate.",
      }),
    rule: z
      .union([z.enum(RULES), z.string().regex(/^[A-Z0-9_]+\.[A-Z0-9_.]+$/)])
      .nullable()
      .openapi({
        description:
          "The rule that made the line; null for regular time and time off. A premium names its Fair Workweek pack's rule " +
          "as `<PACK>.<RULE>` (e.g. NYC_FAST_FOOD.CHANGE_7_TO_13_DAYS_ADDED).",
      }),
    ruleSetId: z.string().nullable().openapi({ description: "The rule set whose rules made the line; null where none governs." }),
    qualifiedOvertimePremium: z
      .number()
      .nullable()
      .optional()
      .openapi({
        description:
          "OVERTIME and DOUBLE_TIME lines only: the part of `amount` that FLSA section 7 requires (29 U.S.C. 207(a)(1)) — " +
          "0.5 × the workweek's regular rate for each of the line's minutes over 40 hours in the FLSA workweek — the " +
          '"qualified overtime compensation" of the One Big Beautiful Bill Act (Pub. L. 119-21 §70202; IRC §225(c)(1)) ' +
          "that Form W-2 reports for 2025–2028. Minutes that are overtime only under a state rule (California's daily " +
          "overtime under 40 hours a week, its seventh day) add nothing; double time adds only its half. The week's " +
          "minutes over 40 are laid on its overtime lines from the last backwards (a daily premium on hours that are " +
          "also over 40 satisfies section 7 for them, 29 CFR 778.202(c)). Never more than the line's pay over straight " +
          "time (amount − minutes at its own wage), and equal to it on a time-and-a-half line all over 40. Rounded to " +
          "cents half away from zero. Null for a salaried staff member.",
        example: 110,
      }),
    qualifiedOvertimeMinutes: z
      .number()
      .int()
      .optional()
      .openapi({ description: "OVERTIME and DOUBLE_TIME lines only: the line's minutes over 40 hours in the FLSA workweek." }),
    policyType: z.string().optional().openapi({
      description: "TIME_OFF lines: the type of the policy (Vacation, Sick, …), which payroll settings map to an earning code.",
    }),
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

export const PayTotals = z.object(payTotalsShape).openapi("PayTotals", {
  description: "Sums of the lines: grossPay is the sum of the line amounts, to the cent.",
});

export const PayWorkweek = z
  .object({
    startDate: z.string().openapi({ format: "date", description: "The workweek's first workday." }),
    endDate: z
      .string()
      .openapi({ format: "date", description: "Its last workday (a short workweek after a change of workweek ends early)." }),
    regularRate: z
      .number()
      .nullable()
      .openapi({
        description:
          "straightTimePay ÷ hours worked (29 CFR 778.115), shown to 4 decimals: every hour worked in the workweek at its " +
          "own wage, divided by the hours. Lines are paid from the exact quotient, never from this rounded figure. Null " +
          "for a salaried staff member.",
        example: 22,
      }),
    minutes: z.number().int().openapi({ description: "Minutes worked in the whole workweek (time off and penalties are not worked)." }),
    straightTimePay: z.number().nullable().openapi({ description: "Every minute worked in the workweek at its own wage, to the cent." }),
    overtimePremium: z
      .number()
      .nullable()
      .openapi({
        description:
          "What the workweek's OVERTIME and DOUBLE_TIME lines pay over straight time (each line's amount − its minutes at " +
          "its own wage), to the cent: with straightTimePay, the figures a payroll provider that computes overtime per " +
          "workweek needs. Null for a salaried staff member.",
      }),
    qualifiedOvertimePremium: z.number().nullable().openapi({
      description:
        "The part of overtimePremium FLSA section 7 requires (see PayLine.qualifiedOvertimePremium). Null for a salaried staff member.",
    }),
    qualifiedOvertimeMinutes: z.number().int().openapi({ description: "The workweek's minutes over 40 hours on which it was paid." }),
  })
  .openapi("PayWorkweek", {
    description: "A workweek with a line in the answer, computed whole even when the requested range cuts it.",
  });

/** A shift paid below its award's minimum (domain/pay-wage-warnings.ts). */
export const PayWarning = z
  .object({
    code: z.enum(["WAGE_BELOW_AWARD_MINIMUM"]),
    date: z.string().openapi({ format: "date", description: "The shift's business date." }),
    shiftId: z.string(),
    wage: z.number().openapi({
      description: "The hourly wage compared: the shift's wage, for a casual with the 25 % casual loading pay adds (to the cent).",
      example: 25,
    }),
    minimum: z.number().openapi({
      description: "The award's minimum hourly rate on that date (a casual's: with the loading).",
      example: 26.55,
    }),
    source: z.string().openapi({ description: "The award, clause and pay guide the minimum comes from." }),
  })
  .openapi("PayWarning", {
    description:
      "WAGE_BELOW_AWARD_MINIMUM: a shift under an AU_GENERAL_RETAIL rule set paid below the General Retail Industry " +
      "Award's minimum for an adult Retail Employee Level 1 ($26.55 an hour from 1 July 2025, cl. 17.1; a casual's " +
      "$33.19 with the 25 % loading, cl. 11.2). Pay is never raised to it silently.",
  });

/** An employee's pay: their identifiers, totals and lines (shared by pay lines and payroll). */
export const employeePayShape = {
  employeeId: z.string(),
  externalId: z.string().nullable(),
  externalPayrollId: z.string().nullable(),
  currencyCode: z.string(),
  ...payTotalsShape,
  qualifiedOvertimePremium: z.number().openapi({
    description:
      "Σ of the lines' qualifiedOvertimePremium: the qualified overtime compensation (Pub. L. 119-21 §70202) of the " +
      "lines answered. A payroll closed before it was computed has none (read it as 0).",
  }),
  qualifiedOvertimeMinutes: z.number().int().openapi({ description: "Σ of the lines' qualifiedOvertimeMinutes." }),
  workweeks: z.array(PayWorkweek),
  warnings: z
    .array(PayWarning)
    .optional()
    .openapi({
      description:
        "Present only when a shift of the range was paid below its award's minimum hourly rate: one warning per shift. " +
        "The lines still pay the wage paid; the warning is for the employer to correct the wage.",
    }),
  lines: z.array(PayLine),
};

export const EmployeePay = z.object(employeePayShape).openapi("EmployeePay");

export const PayLines = z
  .object({ startDate: z.string(), endDate: z.string(), employees: z.array(EmployeePay), totals: PayTotals })
  .openapi("PayLines");

/** The signed difference of an employee's totals from the previous close's. */
export const PayrollAdjustment = z
  .object({
    employeeId: z.string(),
    ...payTotalsShape,
    workweeks: z.array(
      z
        .object({
          startDate: z.string().openapi({ format: "date" }),
          endDate: z.string().openapi({ format: "date" }),
          regularRate: z.number(),
          minutes: z.number().int(),
          straightTimePay: z.number(),
        })
        .openapi("PayrollWorkweekAdjustment", {
          description: "A workweek whose regular rate, minutes worked or straight-time pay changed: the signed differences.",
        }),
    ),
  })
  .openapi("PayrollAdjustment", {
    description:
      "The signed difference from the previous version's figures, with each workweek whose regular rate, minutes or " +
      "straight-time pay changed (even when the totals did not).",
  });

export const PayLinesQuery = z.object({
  startDate: CalendarDate.openapi({ param: { name: "startDate", in: "query" } }),
  endDate: CalendarDate.openapi({ param: { name: "endDate", in: "query" } }),
  employeeId: queryIdParam("employeeId"),
  locationId: queryIdParam("locationId"),
  organizationId: queryIdParam("organizationId", "A partner-level token names the organization."),
  ...PageQuery.shape,
});
