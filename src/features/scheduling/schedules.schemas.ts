import type { scheduleEntries } from "@db/schema";
import { z } from "@hono/zod-openapi";
import { INELIGIBILITY_REASONS } from "@/domain/eligibility";
import { localWallClock } from "@/domain/local-time";
import { idParam } from "@/platform/openapi/helpers";
import { ListQuery } from "@/platform/schemas/list-query";
import { iso, isoOrNull } from "@/platform/schemas/time";
import { CalendarDate, DateOrInstant, Timestamp, TimestampOrNull, UtcOffset, WallClockInput } from "@/platform/schemas/validation";
import { ChangeReason, Exemption, ScheduleChange } from "@/wire/schedule-change.schemas";
import { WorkingTimeViolation } from "@/wire/working-time-violation.schemas";

export type ScheduleEntryRow = typeof scheduleEntries.$inferSelect;

export const Id = z.string().min(1).max(64).openapi({ example: "0193a5a0-7c1e-7b2a-9d4e-1f2a3b4c5d6e" });

export const LocationParams = z.object({
  organizationId: idParam("organizationId", "Organization id"),
  locationId: idParam("locationId", "Location id"),
});

export const EntryParams = LocationParams.extend({ id: idParam("id", "Schedule entry id") });

export const WallClock = WallClockInput.openapi({
  description: "Local wall-clock time written with Z, as the wire shows it (utc = local − utcOffset).",
  example: "2026-03-14T09:00:00Z",
});

export const EntryUtcOffset = UtcOffset.openapi({
  description:
    "Minutes east of UTC (a number or an integer string). Omitted or null: each time is read in the location's zone " +
    "at that moment (DST-correct).",
});

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/** Break type ids of the location: an array, or a JSON-encoded string of one (operation 11's sample). */
export const BreakIds = z
  .union([z.array(z.string()), z.string().max(4000)])
  .transform((value) => (typeof value === "string" ? parseJson(value) : value))
  .pipe(z.array(Id).max(20))
  .openapi({
    description: "Break type ids of the location: an array, or a JSON-encoded string of one.",
    example: ["0193a5a0-7c1e-7b2a-9d4e-1f2a3b4c5d6e"],
  });

export const RangeFields = {
  startDate: DateOrInstant("First local date (YYYY-MM-DD, inclusive) or an ISO 8601 instant, compared with each start.", "2026-03-09"),
  endDate: DateOrInstant("Last local date (inclusive) or an ISO 8601 instant (inclusive).", "2026-03-15"),
};

export const LocalDate = CalendarDate.openapi({ example: "2026-03-09", description: "A local date." });

export const ScheduleListQuery = ListQuery.extend({
  startDate: RangeFields.startDate.optional(),
  endDate: RangeFields.endDate.optional(),
  employeeId: Id.optional().openapi({ description: "Only this staff member's entries." }),
  roleId: Id.optional().openapi({ description: "Only entries in this role." }),
});

export const ScheduleEntry = z
  .object({
    id: z.string().openapi({ example: "0193a5a0-7c1e-7b2a-9d4e-1f2a3b4c5d6e" }),
    organizationId: z.string(),
    locationId: z.string(),
    employeeId: z.string(),
    roleId: z.string(),
    startTime: Timestamp.openapi({ description: "Local wall-clock time written with Z: utcStartTime + utcOffset." }),
    endTime: Timestamp,
    utcStartTime: Timestamp,
    utcEndTime: Timestamp,
    utcOffset: z.number().int().openapi({ example: -240 }),
    timezone: z.string().openapi({ example: "America/New_York" }),
    breaks: z.array(z.string()).openapi({ description: "Break type ids of the location." }),
    note: z.string().nullable(),
    isDraft: z.boolean(),
    isPublished: z.boolean(),
    publishedAt: TimestampOrNull,
    openShiftId: z.string().nullable().openapi({ description: "The open shift whose claim or assignment created the entry." }),
    workingTimeOverride: z
      .object({
        reason: z.string(),
        by: z.string().nullable().openapi({ description: "The staff member who overrode (null: an organization token)." }),
        at: Timestamp,
        violations: z.array(
          z
            .object({ rule: z.string(), limit: z.number(), actual: z.number(), unit: z.string(), source: z.string() })
            .openapi("OverriddenViolation"),
        ),
      })
      .nullable()
      .openapi({
        description:
          "The working-time violations the entry's last write overrode (`workingTimeOverride: {reason}` in its body), with " +
          "who and when; null: none.",
      }),
    active: z.boolean(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    deletedAt: TimestampOrNull,
  })
  .openapi("ScheduleEntry");

const Note = z.string().trim().max(1000).nullable().optional();

const IgnoreAvailability = z
  .boolean()
  .default(false)
  .openapi({
    description:
      "Schedule the staff member even where their availability says UNAVAILABLE (a manager's override). A draft keeps " +
      "the value of its last create or update: publishing it skips it for unavailability only without it.",
  });

const ConsentId = Id.optional().openapi({
  description:
    "The worker's REST consent (POST …/staffmembers/{id}/consents) when a published entry falls inside their rest " +
    "between shifts at a location whose Fair Workweek pack requires consent; without it that is 409 REST_CONSENT_REQUIRED.",
});

export const WorkingTimeOverride = z
  .object({ reason: z.string().trim().min(1).max(500) })
  .strict()
  .optional()
  .openapi("WorkingTimeOverride", {
    description:
      "Write the entry although it breaks the location's working-time rules (each otherwise 409 WORKING_TIME_CONFLICT): " +
      "needs WORKING_TIME_OVERRIDE; the reason, the caller and the violations are kept on the entry and in its event.",
  });

export const ScheduleEntryCreate = z
  .object({
    employeeId: Id,
    roleId: Id,
    startTime: WallClock,
    endTime: WallClock,
    utcOffset: EntryUtcOffset,
    breaks: BreakIds.optional(),
    note: Note,
    ignoreAvailability: IgnoreAvailability,
    consentId: ConsentId,
    workingTimeOverride: WorkingTimeOverride,
  })
  .openapi("ScheduleEntryCreate");

export const ScheduleEntryPatch = z
  .object({
    employeeId: Id.optional(),
    roleId: Id.optional(),
    startTime: WallClock.optional(),
    endTime: WallClock.optional(),
    utcOffset: UtcOffset.openapi({ description: "Minutes east of UTC. Omitted or null: the entry's own utcOffset." }),
    breaks: BreakIds.optional(),
    note: Note,
    ignoreAvailability: IgnoreAvailability,
    changeReason: ChangeReason,
    exemption: Exemption,
    consentId: ConsentId,
    workingTimeOverride: WorkingTimeOverride,
  })
  .refine(
    ({ ignoreAvailability: _, changeReason: __, exemption: ___, consentId: ____, workingTimeOverride: _____, ...fields }) =>
      Object.values(fields).some((v) => v !== undefined),
    "send at least one field",
  )
  .openapi("ScheduleEntryPatch");

/** DELETE of a published entry: what its change says (recorded in the Fair Workweek change log). */
export const EntryRemoveQuery = z.object({
  changeReason: ChangeReason.openapi({ param: { name: "changeReason", in: "query" } }),
  exemption: Exemption.openapi({ param: { name: "exemption", in: "query" } }),
});

export const PublishBody = z
  .object({
    ...RangeFields,
    dryRun: z.boolean().default(false).openapi({
      description: "Answer what publishing would record in the Fair Workweek change log and its premiums, writing nothing.",
    }),
    workingTimeOverride: WorkingTimeOverride,
  })
  .openapi("SchedulePublishRequest");

const PremiumSums = {
  changes: z.number().int(),
  premiumHours: z.number().openapi({ description: "Hours at the regular rate the changes earn (priced in pay by each workweek's rate)." }),
  premiumAmount: z.number().openapi({
    description:
      "What the changes' premiums would cost: their flat amounts, plus their premium hours at the regular rate schedule " +
      "cost projects for each workweek (GET …/schedules/cost with includeDrafts: the shifts worked and the entries to " +
      "come, these drafts as published, rule sets, wages and break types; premiums never enter that rate), or the " +
      "staff member's wage where they work nothing that week. Hours with no rate to project (no wage at all) add " +
      "nothing. Projected when amountProjected: pay prices the hours at the week's actual regular rate once worked.",
  }),
  amountProjected: z.boolean().openapi({
    description: "True when premiumAmount prices premium hours at a projected regular rate; false when it is flat amounts only (exact).",
  }),
};

export const PublishDryRunResult = z
  .object({
    dryRun: z.literal(true),
    evaluatedAt: Timestamp,
    changes: z.array(ScheduleChange).openapi({ description: "The changes the publish would record (ids are not kept)." }),
    employees: z.array(z.object({ employeeId: z.string(), ...PremiumSums }).openapi("PublishDryRunEmployee")),
    totals: z.object(PremiumSums).openapi("PublishDryRunTotals"),
    restConsentRequired: z.array(z.string()).openapi({
      description:
        "Ids of the drafts inside a consent-requiring rest window without their worker's REST consent for them: the " +
        "publish would be refused 409 REST_CONSENT_REQUIRED while any remain.",
    }),
    workingTimeViolations: z
      .array(
        z
          .object({
            scheduleEntryId: z.string().openapi({
              description: "The draft's id, or for an applied assignment the id its entry would get (not kept by a dry run).",
            }),
            preferenceId: z.string().optional().openapi({ description: "An applied assignment's preference (absent for a draft)." }),
            openShiftId: z.string().optional().openapi({ description: "An applied assignment's open shift (absent for a draft)." }),
            violations: z.array(WorkingTimeViolation),
          })
          .openapi("PublishWorkingTimeViolations"),
      )
      .openapi({
        description:
          "Per draft (by id), and per entry an applied open-shift assignment would become (by preferenceId and " +
          "openShiftId), the working-time rules of the location's pack it would break among its worker's published " +
          "entries, worked shifts, the other drafts and assignments: the publish would be refused 409 " +
          "WORKING_TIME_CONFLICT unless it carries `workingTimeOverride`. A violation names existing entries only.",
      }),
  })
  .openapi("SchedulePublishDryRun");

export const PublishResult = z
  .object({
    publishedEntries: z.number().int().openapi({ example: 42 }),
    publishedOpenShifts: z.number().int().openapi({ example: 3 }),
    appliedAssignments: z
      .number()
      .int()
      .openapi({ description: "Draft assignments of the published open shifts, now schedule entries.", example: 2 }),
    publishedAt: Timestamp,
    skipped: z
      .array(
        z
          .object({
            id: z.string(),
            employeeId: z.string(),
            startTime: Timestamp,
            endTime: Timestamp,
            reason: z.enum(["TIME_OFF_CONFLICT", "WORKER_UNAVAILABLE"]).openapi({
              description:
                "TIME_OFF_CONFLICT: on the staff member's approved time off (checked first). WORKER_UNAVAILABLE: on an " +
                "UNAVAILABLE occurrence of their availability, and the draft was not last written with ignoreAvailability.",
            }),
          })
          .openapi("SchedulePublishSkip"),
      )
      .openapi({
        description:
          "Draft entries of the range left unpublished (still drafts): on their staff member's approved time off, or on " +
          "an UNAVAILABLE occurrence of their availability (unless the draft carries ignoreAvailability).",
      }),
    withheldOpenShifts: z
      .array(
        z
          .object({
            openShiftId: z.string(),
            preferenceId: z.string().openapi({ description: "The draft assignment that conflicts." }),
            employeeId: z.string(),
            startTime: Timestamp,
            endTime: Timestamp,
            reason: z.enum(["TIME_OFF_CONFLICT", "SCHEDULE_OVERLAP"]),
          })
          .openapi("SchedulePublishWithheld"),
      )
      .openapi({
        description:
          "Draft open shifts of the range left unpublished (still drafts, with their assignments) because one of their " +
          "draft assignments meets its worker's approved time off or another entry: reassign, then publish again.",
      }),
  })
  .openapi("SchedulePublishResult");

export const EligibilityQuery = z.object({
  startTime: WallClock.openapi({ param: { name: "startTime", in: "query" } }),
  endTime: WallClock.openapi({ param: { name: "endTime", in: "query" } }),
  roleId: Id.optional().openapi({ param: { name: "roleId", in: "query" }, description: "Only staff members with this role." }),
});

export const EligibilityRow = z
  .object({
    employeeId: z.string(),
    eligible: z.boolean(),
    reasons: z.array(z.enum(INELIGIBILITY_REASONS)),
    preferred: z.boolean().openapi({ description: "A PREFERRED occurrence of their availability overlaps the slot." }),
    scheduledMinutesThisWeek: z.number().int(),
    projectedOvertimeMinutes: z
      .number()
      .int()
      .openapi({ description: "Weekly overtime the slot would add under the pay rules in force at the location." }),
  })
  .openapi("Eligibility");

/**
 * The most copies one request writes (one atomic batch within D1's 1,000 queries per invocation). Each copy is one
 * guarded insert; published copies at a working-time pack location add their workers' share of the judgement's reads
 * and trailing guards (4 statements per 92 workers) and Fair Workweek change rows (one statement per 200): at worst,
 * each copy another worker's, 1.13 queries a copy plus about 20 others (measured in
 * test/features/scheduling/schedules-bulk-copy-limit.test.ts). 750 copies is about 870 queries, leaving a margin for
 * the Idempotency-Key record and the checks that name the problem of a refused batch.
 */
export const BULK_COPY_IN_REQUEST_MAX = 750;

export const BulkCopyBody = z
  .object({
    fromStartDate: LocalDate,
    fromEndDate: LocalDate,
    toStartDate: LocalDate,
    employeeIds: z.array(Id).min(1).max(500).optional().openapi({ description: "Only these staff members' entries." }),
    asDrafts: z.boolean().default(true).openapi({ description: "Create the copies as drafts (default) or published." }),
    ignoreAvailability: IgnoreAvailability,
    workingTimeOverride: WorkingTimeOverride.openapi({
      description:
        "Write published copies although they break the location's working-time rules (each otherwise skipped as " +
        "WORKING_TIME_CONFLICT): needs WORKING_TIME_OVERRIDE (else 403); each such copy keeps the reason, the caller and " +
        "its own violations in its workingTimeOverride.",
    }),
  })
  .openapi("ScheduleBulkCopyRequest");

export const BulkCopyResult = z
  .object({
    created: z.array(ScheduleEntry),
    skipped: z.array(
      z
        .object({
          sourceId: z.string(),
          employeeId: z.string(),
          startTime: Timestamp,
          endTime: Timestamp,
          reason: z.enum(["SCHEDULE_OVERLAP", "TIME_OFF_CONFLICT", "WORKER_UNAVAILABLE", "WORKING_TIME_CONFLICT"]).openapi({
            description:
              "WORKING_TIME_CONFLICT: a published copy (asDrafts: false) that would break the location's working-time " +
              "rules with the worker's published entries, worked shifts or other copies (listed in `violations`).",
          }),
          violations: z
            .array(WorkingTimeViolation)
            .optional()
            .openapi({
              description:
                "For WORKING_TIME_CONFLICT: what the copy would break. `scheduleEntryIds` names existing entries only (a " +
                "skipped copy has no id).",
            }),
        })
        .openapi("ScheduleCopySkip"),
    ),
  })
  .openapi("ScheduleBulkCopyResult");

export const serializeEntry = (row: ScheduleEntryRow): z.infer<typeof ScheduleEntry> => ({
  id: row.id,
  organizationId: row.organizationId,
  locationId: row.locationId,
  employeeId: row.employeeId,
  roleId: row.roleId,
  startTime: localWallClock(row.startAt, row.utcOffset),
  endTime: localWallClock(row.endAt, row.utcOffset),
  utcStartTime: iso(row.startAt),
  utcEndTime: iso(row.endAt),
  utcOffset: row.utcOffset,
  timezone: row.timezone,
  breaks: row.breaks,
  note: row.note,
  isDraft: row.isDraft,
  isPublished: !row.isDraft,
  publishedAt: isoOrNull(row.publishedAt),
  openShiftId: row.openShiftId,
  workingTimeOverride: row.workingTimeOverride ?? null,
  active: row.active,
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
  deletedAt: isoOrNull(row.deletedAt),
});

export type EntryCreateInput = z.infer<typeof ScheduleEntryCreate>;
export type EntryPatchInput = z.infer<typeof ScheduleEntryPatch>;
export type EntryRemoveInput = z.infer<typeof EntryRemoveQuery>;
export type ScheduleListInput = z.infer<typeof ScheduleListQuery>;
