import { z } from "@hono/zod-openapi";
import { type LocationWorkingTimeRow, settingOn, type WorkingTimeVersion } from "@/data/working-time/location-working-time.data";
import { WORKING_TIME_PACK_IDS, type WorkingTimeOverrides, type WorkingTimePack } from "@/domain/working-time/packs";
import { idParam, OrganizationParams, queryIdParam } from "@/platform/openapi/helpers";
import { PageQuery } from "@/platform/schemas/list-query";
import { iso } from "@/platform/schemas/time";
import { CalendarDate, orNull, TimestampOrNull } from "@/platform/schemas/validation";
import { WorkingTimeViolation } from "@/wire/working-time-violation.schemas";

export const WorkingTimePackId = z.enum(WORKING_TIME_PACK_IDS).openapi("WorkingTimePackId", { example: "DE" });

const Limit = z
  .object({
    value: z.number(),
    source: z.string().openapi({ description: "The article or section the figure comes from." }),
    agreementMayChange: z
      .boolean()
      .openapi({ description: "A collective or workplace agreement may change it: a location may override it." }),
  })
  .openapi("WorkingTimeLimit");

const BreakTier = z
  .object({
    overHours: z.number().min(0).max(24).openapi({ description: "Work of more than this many hours…" }),
    minutes: z.number().int().min(0).max(240).openapi({ description: "…needs at least this many minutes of breaks in total." }),
    inclusive: z
      .boolean()
      .optional()
      .openapi({ description: 'Work of exactly overHours needs them too (France\'s "atteint six heures", NZ\'s "2 hours or more").' }),
  })
  .strict()
  .openapi("WorkingTimeBreakTier");

export const WorkingTimePackSchema = z
  .object({
    id: WorkingTimePackId,
    version: z.number().int(),
    effectiveFrom: CalendarDate,
    name: z.string(),
    description: z.string().openapi({ description: "The statute each figure comes from, article by article." }),
    restBetweenShifts: orNull(Limit).openapi({
      description: "Hours between one shift's end and the next's start (exactly the figure is enough).",
    }),
    restBetweenShiftsWaivedUpTo: orNull(Limit).openapi({
      description: "Two successive shifts whose hours worked total at most this figure need no rest between them (Ontario ESA s. 18(3)).",
    }),
    dailyRest: orNull(Limit).openapi({
      description:
        "Consecutive hours free of work in each day: the 24 hours from the worker's first start on a local date " +
        "(Ontario ESA s. 18(1)); exactly the figure is enough.",
    }),
    dailyMaximum: orNull(Limit).openapi({ description: "Hours worked on one local date, breaks excluded (exactly the cap is allowed)." }),
    weeklyMaximum: orNull(Limit).openapi({ description: "Hours worked in one Monday-to-Sunday week." }),
    weeklyAverage: orNull(
      z.object({
        hours: z.number(),
        referenceWeeks: z.number().int(),
        source: z.string(),
        optOutAllowed: z.boolean(),
        agreementMayChange: z.boolean(),
      }),
    ).openapi({ description: "The average weekly hours over the reference period (a worker's opt-out counts where optOutAllowed)." }),
    weeklyRest: orNull(Limit).openapi({ description: "Uninterrupted hours off each week." }),
    breaks: orNull(
      z.object({
        tiers: z.array(BreakTier),
        minBlockMinutes: z.number().int(),
        measure: z.enum(["WORKED", "SPAN"]).openapi({
          description:
            "What the tiers' hours count: WORKED (breaks excluded) or SPAN (start to finish, breaks included: NZ's work period).",
        }),
        source: z.string(),
        agreementMayChange: z.boolean(),
      }),
    ),
    overtimeCap: orNull(
      z.object({
        ordinaryDailyHours: z.number(),
        ordinaryWeeklyHours: z.number(),
        monthHours: z.number(),
        yearHours: z.number(),
        source: z.string(),
        agreementMayChange: z.boolean(),
        monthBelowHours: orNull(Limit).openapi({
          description:
            "Each calendar month's overtime (holiday work included) must stay under it — exactly the figure breaks it " +
            "(JP art. 36(6)(ii): 100); binds whatever the agreement says.",
        }),
        averageHours: orNull(
          z.object({
            value: z.number(),
            source: z.string(),
            agreementMayChange: z.boolean(),
            fromMonths: z.number().int(),
            toMonths: z.number().int(),
          }),
        ).openapi({
          description:
            "The monthly average of overtime (holiday work included) over every window of fromMonths to toMonths " +
            "consecutive calendar months must not exceed value (JP art. 36(6)(iii): 80 over 2 to 6 months).",
        }),
        specialClause: orNull(
          z.object({
            applies: z.boolean().openapi({ description: "Whether the location's agreement has one (override overtimeSpecialClause)." }),
            yearHours: z.number(),
            monthsOverMonthHours: z.number().int(),
            source: z.string(),
            agreementMayChange: z.boolean(),
          }),
        ).openapi({
          description:
            "A special clause of the overtime agreement (JP art. 36(5)): when it applies the year's cap is yearHours (720) " +
            "and monthHours may be exceeded in at most monthsOverMonthHours (6) months of a calendar year.",
        }),
      }),
    ),
    minors: orNull(
      z.object({
        underAge: z.number().int(),
        schoolDayHours: z.number().nullable(),
        schoolWeekHours: z.number().nullable(),
        dayHours: z.number().nullable(),
        weekHours: z.number().nullable(),
        earliest: z.string().nullable(),
        latest: z.string().nullable(),
        summerLatest: z.string().nullable(),
        summerFrom: z.string().nullable(),
        summerTo: z.enum(["LABOR_DAY"]).nullable(),
        restHours: z.number().nullable(),
        breakTiers: z.array(BreakTier),
        source: z.string(),
        weeklyRest: orNull(
          z.object({ value: z.number(), reducibleTo: z.number(), source: z.string(), agreementMayChange: z.boolean() }),
        ).openapi({
          description:
            "Uninterrupted hours off in each 7 days for a week the worker starts as a minor (UK reg. 11(3): 48, reducible " +
            "to 36 by reg. 11(8)(b)); the report's MINOR_WEEKLY_REST.",
        }),
      }),
    ),
    retentionYears: orNull(Limit).openapi({ description: "Years a worked shift's record is kept." }),
    publicHolidayRest: orNull(z.object({ source: z.string(), agreementMayChange: z.boolean() })).openapi({
      description:
        "No work on the location's public holidays (GET …/locations/{id}/holidays, with the organization's overrides): the " +
        "report lists each such day as PUBLIC_HOLIDAY_WORK; a location whose trade is exempt sets publicHolidayWorkAllowed.",
    }),
  })
  .openapi("WorkingTimePack");

export const WorkingTimePacksQuery = z.object({
  date: CalendarDate.optional().openapi({
    param: { name: "date", in: "query" },
    description: "Only the version of each pack in effect on this date (default: every version).",
  }),
});

const hours = z.number().gt(0).max(168);

export const WorkingTimeOverridesSchema = z
  .object({
    restBetweenShiftsHours: z.number().gt(0).max(24).optional(),
    dailyMaximumHours: z.number().gt(0).max(24).optional(),
    weeklyMaximumHours: hours.optional(),
    weeklyAverageHours: hours.optional(),
    breakTiers: z.array(BreakTier).max(10).optional(),
    overtimeMonthHours: z.number().gt(0).max(744).optional(),
    overtimeYearHours: z.number().gt(0).max(8784).optional(),
    overtimeSpecialClause: z
      .boolean()
      .optional()
      .openapi({
        description:
          "The location's overtime agreement has a special clause (JP art. 36(5)): 720 hours a year, the 45-hour month " +
          "exceeded in at most 6 months a year. Off unless set.",
      }),
    minorWeeklyRestHours: z.number().gt(0).max(168).optional().openapi({
      description: "A young worker's weekly rest reduced for technical or organisational reasons (UK reg. 11(8)(b)); refused under 36.",
    }),
    publicHolidayWorkAllowed: z.boolean().optional().openapi({
      description: "The location's trade may work public holidays (ArbZG §10): the pack's public-holiday rest (DE §9(1)) is not judged.",
    }),
  })
  .strict()
  .openapi("WorkingTimeOverrides", { example: { restBetweenShiftsHours: 10 } });

export const LocationParams = OrganizationParams.extend({ locationId: idParam("locationId", "Location id") });

export const SchoolTerm = z
  .object({ startDate: CalendarDate, endDate: CalendarDate })
  .strict()
  .refine((t) => t.startDate <= t.endDate, { message: "must not be before startDate", path: ["endDate"] })
  .openapi("SchoolTerm");

export const SchoolTerms = z
  .array(SchoolTerm)
  .max(50)
  .openapi("SchoolTerms", { example: [{ startDate: "2026-09-01", endDate: "2026-12-18" }] });

const WorkingTimeSettingVersion = z
  .object({
    effectiveFrom: CalendarDate.openapi({ description: "The location's local date this version judges from." }),
    rulePack: orNull(WorkingTimePackId),
    overrides: orNull(WorkingTimeOverridesSchema),
  })
  .openapi("WorkingTimeSettingVersion");

export const LocationWorkingTime = z
  .object({
    locationId: z.string(),
    rulePack: orNull(WorkingTimePackId).openapi({ description: "The pack in effect today (null: none)." }),
    overrides: orNull(WorkingTimeOverridesSchema),
    effectiveFrom: orNull(CalendarDate).openapi({
      description: "The date the setting shown took effect (null: never set). In the event: the version just written.",
    }),
    history: z.array(WorkingTimeSettingVersion).openapi({
      description:
        "Every version, oldest first: a date is judged by the newest version whose effectiveFrom is on or before it, a " +
        "date before the first by the first. In the event: the version just written.",
    }),
    schoolTerms: SchoolTerms,
    effective: orNull(WorkingTimePackSchema).openapi({
      description: "The pack's version in effect today with the overrides laid over it; null without a pack.",
    }),
    updatedAt: TimestampOrNull,
  })
  .openapi("LocationWorkingTime");

export const LocationWorkingTimePut = z
  .object({
    rulePack: orNull(WorkingTimePackId),
    overrides: orNull(WorkingTimeOverridesSchema).optional(),
    effectiveFrom: CalendarDate.optional().openapi({
      description: "The location's local date the setting judges from (default: the location's today); earlier dates keep theirs.",
    }),
  })
  .strict()
  .openapi("LocationWorkingTimePut", { example: { rulePack: "DE", overrides: null } });

type SettingRow = Omit<LocationWorkingTimeRow, "versions"> & { versions?: WorkingTimeVersion[] };

const versionWire = (v: WorkingTimeVersion): z.infer<typeof WorkingTimeSettingVersion> => ({
  effectiveFrom: v.effectiveFrom,
  rulePack: v.rulePack as z.infer<typeof WorkingTimePackId> | null,
  overrides: v.overrides,
});

/** The setting in effect on `today` with its history (a row without versions: the one it was written with). */
export function serializeLocationWorkingTime(
  locationId: string,
  row: SettingRow | undefined,
  effective: WorkingTimePack | null,
  today: string,
): z.infer<typeof LocationWorkingTime> {
  const written: WorkingTimeVersion[] =
    row?.effectiveFrom != null
      ? [{ effectiveFrom: row.effectiveFrom, rulePack: row.rulePack, overrides: row.overrides as WorkingTimeOverrides | null }]
      : [];
  const history = row?.versions ?? written;
  const current = settingOn(row ? { ...row, versions: history } : null, today);
  return {
    locationId,
    rulePack: (current?.rulePack ?? null) as z.infer<typeof WorkingTimePackId> | null,
    overrides: current?.overrides ?? null,
    effectiveFrom: current?.effectiveFrom || null,
    history: history.map(versionWire),
    schoolTerms: row?.schoolTerms ?? [],
    effective,
    updatedAt: row ? iso(row.updatedAt) : null,
  };
}

/** The row's own fields, as the event of a PUT carries it: the setting as written (its `effective` pack is read on GET). */
export const serializeLocationWorkingTimeRow = (row: Omit<LocationWorkingTimeRow, "versions">) =>
  serializeLocationWorkingTime(row.locationId, row, null, row.effectiveFrom ?? "");

export const WorkingTimeReportRow = z
  .object({
    employeeId: z.string(),
    rulePack: WorkingTimePackId,
    periodStart: CalendarDate,
    periodEnd: CalendarDate,
    averageWeeklyHours: z.number().openapi({ description: "Hours worked in the period ÷ its days × 7, to 2 decimals." }),
    longestDayHours: z.number(),
    shortestRestHours: z
      .number()
      .nullable()
      .openapi({ description: "The shortest gap before a shift starting in the period; null: none." }),
    weeksWithoutWeeklyRest: z.number().int().openapi({ description: "Whole 7-day weeks from periodStart without the pack's weekly rest." }),
    violations: z.array(WorkingTimeViolation),
  })
  .openapi("WorkingTimeReportRow");

export const WorkingTimeReportQuery = z.object({
  ...PageQuery.shape,
  startDate: CalendarDate.openapi({ param: { name: "startDate", in: "query" } }),
  endDate: CalendarDate.openapi({ param: { name: "endDate", in: "query" } }),
  employeeId: queryIdParam("employeeId", "Only this staff member."),
});
