import type { payRuleSets } from "@db/schema";
import { z } from "@hono/zod-openapi";
import {
  type PayRuleSet as DomainRuleSet,
  legacyMealBreak,
  MEAL_AFTER_MINUTES_MIN,
  MEAL_PENALTY_HOURS_MAX,
  MEAL_PERIODS_MAX,
  PAY_PRESETS,
  ROUNDING_INCREMENTS,
  ROUNDING_MODES,
  type RoundingMode,
  WORKWEEK_DAYS,
} from "@/domain/pay-rules";
import { idParam, OrganizationParams } from "@/platform/openapi/helpers";
import { iso } from "@/platform/schemas/time";
import { CalendarDate, ClockTime, Name, orNull, Timestamp } from "@/platform/schemas/validation";

type RuleSetRow = typeof payRuleSets.$inferSelect;

const thresholdMinutes = (description: string) =>
  orNull(z.number().int().min(0).max(100_000)).openapi({ description: `${description} Whole minutes; null for none.`, example: 480 });

const multiplier = (description: string, example: number) => z.number().min(1).max(10).openapi({ description, example });

const Rounding = z
  .object({
    incrementMinutes: z
      .number()
      .int()
      .refine((n) => (ROUNDING_INCREMENTS as readonly number[]).includes(n), `must be one of ${ROUNDING_INCREMENTS.join(", ")}`)
      .openapi({
        enum: [...ROUNDING_INCREMENTS],
        description: "Each clock-in and clock-out is rounded to this many minutes for pay; 0 leaves punches as they are.",
        example: 15,
      }),
    mode: z.enum(ROUNDING_MODES).openapi({ description: "NEAREST rounds a tie up.", example: "NEAREST" }),
  })
  .openapi("PayRounding");

const MealBreak = z
  .object({
    afterMinutes: z
      .number()
      .int()
      .min(MEAL_AFTER_MINUTES_MIN)
      .max(1440)
      .openapi({ example: 300, description: `Minutes of work, ${MEAL_AFTER_MINUTES_MIN} to 1440: a rule under an hour is a 400.` }),
    minimumMinutes: z
      .number()
      .int()
      .min(1)
      .max(1440)
      .openapi({ example: 30, description: "Minutes of the break, at least 1 and not above afterMinutes (else 400 naming this field)." }),
    penaltyHours: z
      .number()
      .min(0)
      .max(MEAL_PENALTY_HOURS_MAX)
      .openapi({ example: 1, description: `Hours of the penalty, 0 to ${MEAL_PENALTY_HOURS_MAX} (0 writes no penalty line).` }),
  })
  .openapi("PayMealBreakRule", {
    description:
      "A workday longer than afterMinutes without an unpaid break of at least minimumMinutes started before that much work earns one MEAL_PENALTY line of penaltyHours at the regular rate. " +
      `afterMinutes is ${MEAL_AFTER_MINUTES_MIN} to 1440, minimumMinutes at most afterMinutes (a break longer than the work before it is a 400), penaltyHours 0 to ${MEAL_PENALTY_HOURS_MAX}.`,
  });

const MealPeriod = z
  .object({
    afterMinutes: z
      .number()
      .int()
      .min(MEAL_AFTER_MINUTES_MIN)
      .max(1440)
      .openapi({ example: 300, description: `Minutes of work, ${MEAL_AFTER_MINUTES_MIN} to 1440, each period later than the one before.` }),
    minimumMinutes: z
      .number()
      .int()
      .min(1)
      .max(1440)
      .openapi({ example: 30, description: "Minutes of the break, at least 1 and not above afterMinutes." }),
    waivableUpToMinutes: orNull(z.number().int().min(1).max(1440))
      .optional()
      .openapi({
        example: 720,
        description:
          "Null or absent: not waivable. Else an employee whose meal waiver covers this period (PUT …/staffmembers/{id}/meal-waivers) " +
          "is excused on a workday of at most this many minutes of work, unless an earlier period was waived that day.",
      }),
  })
  .openapi("PayMealPeriod", {
    description:
      "A meal period: due when a workday's work passes afterMinutes, met by its own unpaid break of at least " +
      "minimumMinutes begun when at most afterMinutes had been worked (the time between two shifts of the day counts).",
  });

const ruleFields = {
  workweekStartsOn: z.enum(WORKWEEK_DAYS).openapi({
    example: "Monday",
    description:
      "The workweek is seven workdays from this day at workdayStartsAt. The organization's: a location's set takes the organization's (422 when it names another).",
  }),
  workdayStartsAt: ClockTime.openapi({
    description:
      "Local time (HH:MM, default 00:00) at which each workday starts: the workday is the 24 hours from then. Minutes " +
      "count in the workday and workweek they were worked in; a shift crossing a boundary is split there. Set it " +
      "(e.g. 04:00) to keep overnight shifts whole. A change of workdayStartsAt or workweekStartsOn takes effect at " +
      "the end of the old workweek holding effectiveFrom; the days until the first new workweek form one short workweek " +
      "(the overlap is paid the greater way, 29 CFR 778.302). The organization's: a location's set takes the " +
      "organization's (422 when it names another).",
    example: "00:00",
  }),
  dailyOvertimeAfterMinutes: thresholdMinutes("Minutes of a workday past which time is overtime."),
  dailyDoubleTimeAfterMinutes: thresholdMinutes(
    "Minutes of a workday past which time is double time (not below dailyOvertimeAfterMinutes).",
  ),
  weeklyOvertimeAfterMinutes: thresholdMinutes(
    "Regular minutes of a workweek past which time is overtime (overtime never counts toward it).",
  ),
  seventhConsecutiveDay: z
    .boolean()
    .openapi({ description: "The seventh consecutive workday of a workweek: its first 480 minutes are overtime, the rest double time." }),
  overtimeMultiplier: multiplier("The wage multiplier of overtime (default 1.5).", 1.5),
  doubleTimeMultiplier: multiplier("The wage multiplier of double time (default 2, not below overtimeMultiplier).", 2),
  rounding: Rounding,
  mealBreaks: z
    .array(MealPeriod)
    .max(MEAL_PERIODS_MAX)
    .openapi({
      description:
        `The meal periods in order (at most ${MEAL_PERIODS_MAX}; [] for none). A workday that misses one (not met, not ` +
        "waived) earns one MEAL_PENALTY line of mealPenaltyHours at the regular rate — one per workday at most, however " +
        "many it missed (Cal. Labor Code 226.7(c)). CALIFORNIA: [{300, 30, waivable up to 360}, {600, 30, waivable up to " +
        "720}] (Labor Code 512(a)). Judged on the actual punches.",
    }),
  mealPenaltyHours: z
    .number()
    .min(0)
    .max(MEAL_PENALTY_HOURS_MAX)
    .openapi({
      example: 1,
      description: `Hours of the one meal premium a workday earns, 0 to ${MEAL_PENALTY_HOURS_MAX} (0: no line; default 1).`,
    }),
  mealBreak: orNull(MealBreak).openapi({
    description:
      "For clients written before mealBreaks: the first meal period with mealPenaltyHours as penaltyHours, null " +
      "without one. Writing it sets the first period's afterMinutes and minimumMinutes and the penalty hours, keeping " +
      "its waiver limit and the later periods; null removes every period. Sent beside mealBreaks or mealPenaltyHours " +
      "it must say the same (else 400 naming mealBreak).",
  }),
};

export const PayRuleSet = z
  .object({
    id: z.string(),
    organizationId: z.string(),
    locationId: z
      .string()
      .nullable()
      .openapi({ description: "Null: organization-wide. A location's own set wins over the organization's." }),
    name: z.string().openapi({ example: "California" }),
    effectiveFrom: z.string().openapi({
      format: "date",
      example: "2026-01-01",
      description: "The set governs workdays from this date until the next set's of the same scope.",
    }),
    preset: z.enum(PAY_PRESETS),
    ...ruleFields,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("PayRuleSet");

export const PayRuleSetCreate = z
  .object({
    name: Name.openapi({ example: "California" }),
    locationId: orNull(z.string().min(1).max(64))
      .optional()
      .openapi({ description: "A location of the organization, or null/absent for the organization's own set." }),
    effectiveFrom: CalendarDate,
    preset: z.enum(PAY_PRESETS).default("CUSTOM"),
    workweekStartsOn: ruleFields.workweekStartsOn.optional(),
    workdayStartsAt: ruleFields.workdayStartsAt.optional(),
    dailyOvertimeAfterMinutes: ruleFields.dailyOvertimeAfterMinutes.optional(),
    dailyDoubleTimeAfterMinutes: ruleFields.dailyDoubleTimeAfterMinutes.optional(),
    weeklyOvertimeAfterMinutes: ruleFields.weeklyOvertimeAfterMinutes.optional(),
    seventhConsecutiveDay: ruleFields.seventhConsecutiveDay.optional(),
    overtimeMultiplier: ruleFields.overtimeMultiplier.optional(),
    doubleTimeMultiplier: ruleFields.doubleTimeMultiplier.optional(),
    rounding: Rounding.partial().optional(),
    mealBreaks: ruleFields.mealBreaks.optional(),
    mealPenaltyHours: ruleFields.mealPenaltyHours.optional(),
    mealBreak: ruleFields.mealBreak.optional(),
  })
  .openapi("PayRuleSetCreate");

/** A PATCH names what changes; the preset it names (or the set's own) fills nothing: fields keep their values. */
export const PayRuleSetPatch = PayRuleSetCreate.omit({ locationId: true })
  .extend({ preset: z.enum(PAY_PRESETS).optional() })
  .partial()
  .openapi("PayRuleSetPatch");

export type PayRuleSetCreateInput = z.infer<typeof PayRuleSetCreate>;
export type PayRuleSetPatchInput = z.infer<typeof PayRuleSetPatch>;

export const PayRuleSetParams = OrganizationParams.extend({ id: idParam("id", "Pay rule set id") });

/** The set as classification reads it. */
export const ruleSetOfRow = (row: RuleSetRow): DomainRuleSet => ({
  id: row.id,
  locationId: row.locationId,
  effectiveFrom: row.effectiveFrom,
  preset: row.preset as DomainRuleSet["preset"],
  workweekStartsOn: row.workweekStartsOn as DomainRuleSet["workweekStartsOn"],
  workdayStartsAt: row.workdayStartsAt,
  dailyOvertimeAfterMinutes: row.dailyOvertimeAfterMinutes,
  dailyDoubleTimeAfterMinutes: row.dailyDoubleTimeAfterMinutes,
  weeklyOvertimeAfterMinutes: row.weeklyOvertimeAfterMinutes,
  seventhConsecutiveDay: row.seventhConsecutiveDay,
  overtimeMultiplier: row.overtimeMultiplier,
  doubleTimeMultiplier: row.doubleTimeMultiplier,
  rounding: { incrementMinutes: row.roundingIncrementMinutes, mode: row.roundingMode as RoundingMode },
  mealBreaks: row.mealBreaks,
  mealPenaltyHours: row.mealPenaltyHours,
});

export const serializePayRuleSet = (row: RuleSetRow): z.infer<typeof PayRuleSet> => {
  const { id: _, locationId: __, effectiveFrom: ___, preset: ____, ...rules } = ruleSetOfRow(row);
  return {
    id: row.id,
    organizationId: row.organizationId,
    locationId: row.locationId,
    name: row.name,
    effectiveFrom: row.effectiveFrom,
    preset: row.preset as DomainRuleSet["preset"],
    ...rules,
    mealBreaks: [...rules.mealBreaks],
    mealBreak: legacyMealBreak(rules),
    rounding: rules.rounding as z.infer<typeof Rounding>,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
};
