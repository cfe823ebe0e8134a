import { z } from "@hono/zod-openapi";
import type { GoodFaithEstimateRow, LocationFairWorkweekRow } from "@/data/fair-workweek/fair-workweek.data";
import {
  CHANGE_KINDS,
  MAX_NOTICE_DAYS,
  REST_APPLIES_TO,
  REST_PREMIUM_TYPES,
  REST_SCOPES,
  RULE_PACK_IDS,
  type RulePack,
  type RulePackOverrides,
} from "@/domain/fair-workweek/packs";
import { idParam, OrganizationParams } from "@/platform/openapi/helpers";
import { iso } from "@/platform/schemas/time";
import { CalendarDate, orNull, Timestamp, TimestampOrNull } from "@/platform/schemas/validation";

const MAX_NOTICE_MINUTES = 90 * 24 * 60;

export const RulePackId = z.enum(RULE_PACK_IDS).openapi("RulePackId", { example: "SEATTLE" });
const ChangeKind = z.enum(CHANGE_KINDS).openapi("ScheduleChangeKind");

const amount = z.number().min(0).max(100_000);
const hours = z.number().min(0).max(24);

export const ChangePremiumRule = z
  .discriminatedUnion("type", [
    z.object({ type: z.literal("FLAT"), amount: amount.openapi({ description: "Dollars per change." }) }).strict(),
    z.object({ type: z.literal("HOURS"), hours: hours.openapi({ description: "Hours at the workweek's regular rate." }) }).strict(),
    z
      .object({
        type: z.literal("FRACTION_OF_LOST_HOURS"),
        fraction: z.number().min(0).max(1).openapi({ description: "This share of the hours lost, at the regular rate." }),
      })
      .strict(),
    z
      .object({
        type: z.literal("HOURS_BY_SHIFT_LENGTH"),
        maxShiftMinutes: z.number().int().min(1).max(1440),
        hoursUpTo: hours.openapi({ description: "Hours for a shift at most maxShiftMinutes long." }),
        hoursOver: hours.openapi({ description: "Hours for a longer shift." }),
      })
      .strict(),
  ])
  .openapi("ChangePremiumRule");

export const ChangeBand = z
  .object({
    code: z
      .string()
      .regex(/^[A-Z0-9_]{1,64}$/, "must be 1–64 of A–Z, 0–9 and _")
      .openapi({ description: "Names the band in a premium's rule (`<pack>.<code>`).", example: "CHANGE_UNDER_14_DAYS" }),
    kinds: z.array(ChangeKind).min(1).max(CHANGE_KINDS.length),
    minNoticeMinutes: z.number().int().min(0).max(MAX_NOTICE_MINUTES),
    maxNoticeMinutes: z.number().int().min(1).max(MAX_NOTICE_MINUTES),
    minMinutesAdded: z
      .number()
      .int()
      .min(0)
      .max(1440)
      .optional()
      .openapi({ description: "An EXTENDED shift earns nothing unless more than this is added." }),
    premium: ChangePremiumRule,
  })
  .strict()
  .refine((band) => band.minNoticeMinutes < band.maxNoticeMinutes, {
    message: "must be more than minNoticeMinutes",
    path: ["maxNoticeMinutes"],
  })
  .openapi("ChangeBand");

const restFields = {
  minHours: z.number().gt(0).max(24).openapi({ description: "Rest shorter than this between two shifts is a violation." }),
  premium: z.enum(REST_PREMIUM_TYPES).openapi({ description: "FLAT: `value` dollars; MULTIPLIER: the hours inside the window × value." }),
  value: z.number().min(0).max(100_000).nullable().openapi({ description: "null: no published figure (flagged, no amount)." }),
  appliesTo: z.enum(REST_APPLIES_TO),
  consentRequired: z.boolean(),
  published: z.boolean(),
  scope: z.enum(REST_SCOPES).openapi({ description: "CONSECUTIVE_DAYS: only a shift on a later calendar day than the previous one." }),
};

export const RestRule = z.object(restFields).openapi("RestRule");

export const RulePackOverridesSchema = z
  .object({
    noticeDays: z.number().int().min(1).max(MAX_NOTICE_DAYS).optional(),
    changePay: z.array(ChangeBand).max(20).optional(),
    rest: z
      .object(restFields)
      .partial()
      .strict()
      .nullable()
      .optional()
      .openapi({ description: "Merged over the pack's rule; null: none." }),
    graceMinutes: z.number().int().min(0).max(240).optional(),
    timeChangeGraceMinutes: z.number().int().min(0).max(240).optional(),
  })
  .strict()
  .openapi("RulePackOverrides", { example: { noticeDays: 14 } });

export const RulePackSchema = z
  .object({
    id: RulePackId,
    version: z.number().int(),
    effectiveFrom: z.string().openapi({ format: "date", example: "2017-07-01" }),
    name: z.string(),
    description: z.string().openapi({ description: "The ordinance each figure comes from." }),
    noticeDays: z.number().int(),
    changePay: z.array(ChangeBand),
    rest: orNull(RestRule),
    graceMinutes: z.number().int(),
    timeChangeGraceMinutes: z
      .number()
      .int()
      .openapi({
        description:
          "A change that only moves a shift's start and end, each by at most this many minutes, earns nothing (Oregon: " +
          "30, ORS 653.455(3)(a)); 0: no such grace.",
      }),
  })
  .openapi("RulePack");

export const RulePacksQuery = z.object({
  date: CalendarDate.optional().openapi({
    param: { name: "date", in: "query" },
    description: "Only the version of each pack in effect on this date (default: every version).",
  }),
});

export const LocationFairWorkweekParams = OrganizationParams.extend({ locationId: idParam("locationId", "Location id") });

export const LocationFairWorkweek = z
  .object({
    locationId: z.string(),
    rulePack: orNull(RulePackId),
    overrides: orNull(RulePackOverridesSchema),
    effective: orNull(RulePackSchema).openapi({
      description: "The pack's version in effect today with the overrides laid over it; null without a pack.",
    }),
    updatedAt: TimestampOrNull,
  })
  .openapi("LocationFairWorkweek");

export const LocationFairWorkweekPut = z
  .object({
    rulePack: orNull(RulePackId),
    overrides: orNull(RulePackOverridesSchema).optional(),
  })
  .strict()
  .openapi("LocationFairWorkweekPut", { example: { rulePack: "SEATTLE", overrides: null } });

export function serializeLocationFairWorkweek(
  locationId: string,
  row: Pick<LocationFairWorkweekRow, "rulePack" | "overrides" | "updatedAt"> | undefined,
  effective: RulePack | null,
): z.infer<typeof LocationFairWorkweek> {
  return {
    locationId,
    rulePack: (row?.rulePack ?? null) as z.infer<typeof RulePackId> | null,
    overrides: (row?.overrides ?? null) as RulePackOverrides | null,
    effective,
    updatedAt: row ? iso(row.updatedAt) : null,
  };
}

/** The row's own fields, as the event of a PUT carries it (its `effective` pack is read on GET). */
export const serializeLocationFairWorkweekRow = (row: LocationFairWorkweekRow) => serializeLocationFairWorkweek(row.locationId, row, null);

const weeklyHours = (description: string) => z.number().min(0).max(168).openapi({ description, example: 20 });

export const GoodFaithEstimate = z
  .object({
    id: z.string(),
    employeeId: z.string(),
    weeklyHoursMin: weeklyHours("The fewest hours a week the worker can expect."),
    weeklyHoursMax: weeklyHours("The most hours a week the worker can expect."),
    effectiveFrom: z.string().openapi({ format: "date", example: "2026-03-14" }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("GoodFaithEstimate");

export const GoodFaithEstimatePut = z
  .object({
    weeklyHoursMin: weeklyHours("The fewest hours a week the worker can expect."),
    weeklyHoursMax: weeklyHours("The most hours a week the worker can expect (at least weeklyHoursMin).").openapi({ example: 30 }),
    effectiveFrom: CalendarDate.openapi({ description: "The local date the estimate applies from." }),
  })
  .strict()
  .refine((body) => body.weeklyHoursMin <= body.weeklyHoursMax, {
    message: "must be at least weeklyHoursMin",
    path: ["weeklyHoursMax"],
  })
  .openapi("GoodFaithEstimatePut");

export const GoodFaithEstimates = z
  .object({
    employeeId: z.string(),
    current: orNull(GoodFaithEstimate).openapi({ description: "The estimate in effect on `date` (default today); null: none yet." }),
    history: z.array(GoodFaithEstimate).openapi({ description: "Every estimate, the newest effectiveFrom first." }),
  })
  .openapi("GoodFaithEstimates");

export const GoodFaithEstimateQuery = z.object({
  date: CalendarDate.optional().openapi({
    param: { name: "date", in: "query" },
    description: "The date `current` is read for (default: today, UTC).",
  }),
});

export const StaffMemberEstimateParams = OrganizationParams.extend({ id: idParam("id", "Staff member id") });

export const serializeGoodFaithEstimate = (row: GoodFaithEstimateRow): z.infer<typeof GoodFaithEstimate> => ({
  id: row.id,
  employeeId: row.employeeId,
  weeklyHoursMin: row.weeklyHoursMin,
  weeklyHoursMax: row.weeklyHoursMax,
  effectiveFrom: row.effectiveFrom,
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
});
