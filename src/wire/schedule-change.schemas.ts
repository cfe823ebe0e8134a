import type { consents, scheduleChanges } from "@db/schema";
import { z } from "@hono/zod-openapi";
import { idParam, OrganizationParams, queryIdParam } from "@/platform/openapi/helpers";
import { PageQuery } from "@/platform/schemas/list-query";
import { iso } from "@/platform/schemas/time";
import { CalendarDate, Timestamp } from "@/platform/schemas/validation";

export type ScheduleChangeRow = typeof scheduleChanges.$inferSelect;

export const CHANGE_KINDS = ["ADDED", "EXTENDED", "SHORTENED", "MOVED", "CANCELLED", "REASSIGNED"] as const;
export const EXEMPTIONS = ["EMPLOYEE_REQUEST", "MUTUAL_CONSENT", "FORCE_MAJEURE"] as const;

/** What a schedule write may say about its change (PATCH body; DELETE query): recorded with it in the change log. */
export const ChangeReason = z
  .string()
  .trim()
  .min(1)
  .max(1000)
  .optional()
  .openapi({
    description:
      "Why a published entry changes: recorded in the Fair Workweek change log (GET …/schedule-changes) when the change " +
      "falls inside the location's notice window.",
  });
export const Exemption = z
  .enum(EXEMPTIONS)
  .optional()
  .openapi({
    description:
      "An exemption the change claims (the worker asked, both agreed, or force majeure): it is recorded and the change " +
      "earns no premium.",
  });

export const ScheduleChange = z
  .object({
    id: z.string(),
    scheduleEntryId: z.string(),
    employeeId: z.string(),
    locationId: z.string(),
    kind: z.enum(CHANGE_KINDS),
    noticeMinutes: z
      .number()
      .int()
      .openapi({ description: "Minutes from the change to the earlier of the entry's original and new start (0 once started)." }),
    minutesLost: z.number().int().openapi({ description: "Scheduled minutes the worker lost by the change." }),
    minutesAdded: z.number().int().openapi({ description: "Scheduled minutes the worker gained by the change." }),
    initiatedBy: z.enum(["EMPLOYER", "EMPLOYEE"]),
    exemption: z.enum(EXEMPTIONS).nullable(),
    reason: z.string().nullable(),
    entryDate: CalendarDate.openapi({ description: "The changed entry's original local date: the date its premium is paid on." }),
    rulePack: z.string().openapi({ description: "The location's rule pack when the change was recorded.", example: "NYC_FAST_FOOD" }),
    premium: z
      .object({
        hours: z.number().nullable().openapi({ description: "Hours at the workweek's regular rate, when the pack pays hours." }),
        amount: z.number().nullable().openapi({ description: "A flat amount, when the pack pays one." }),
        rule: z.string().openapi({ description: "The pack's rule that priced it." }),
      })
      .nullable()
      .openapi({
        description: "What the change earns (pay lines of kind PREDICTABILITY); null: nothing (exempt, employee initiated, or no band).",
      }),
    createdAt: Timestamp,
  })
  .openapi("ScheduleChange");

export const ScheduleChangeListQuery = z.object({
  ...PageQuery.shape,
  startDate: CalendarDate.openapi({ param: { name: "startDate", in: "query" } }),
  endDate: CalendarDate.openapi({ param: { name: "endDate", in: "query" } }),
  locationId: queryIdParam("locationId", "Only this location's changes."),
  employeeId: queryIdParam("employeeId", "Only this staff member's changes."),
});

export const ScheduleChangeListParams = OrganizationParams;

export const serializeScheduleChange = (row: ScheduleChangeRow): z.infer<typeof ScheduleChange> => ({
  id: row.id,
  scheduleEntryId: row.scheduleEntryId,
  employeeId: row.employeeId,
  locationId: row.locationId,
  kind: row.kind,
  noticeMinutes: row.noticeMinutes,
  minutesLost: row.minutesLost,
  minutesAdded: row.minutesAdded,
  initiatedBy: row.initiatedBy,
  exemption: row.exemption,
  reason: row.reason,
  entryDate: row.entryDate,
  rulePack: row.rulePack,
  premium: row.premiumRule === null ? null : { hours: row.premiumHours, amount: row.premiumAmount, rule: row.premiumRule },
  createdAt: iso(row.createdAt),
});

export type ConsentRow = typeof consents.$inferSelect;

export const Consent = z
  .object({
    id: z.string(),
    employeeId: z.string(),
    kind: z.enum(["REST", "ADDED_HOURS"]),
    scheduleEntryId: z.string().nullable().openapi({ description: "The entry it is for; null: whichever entry names it." }),
    note: z.string().nullable(),
    createdAt: Timestamp,
  })
  .openapi("Consent");

export const ConsentCreate = z
  .object({
    kind: z
      .enum(["REST", "ADDED_HOURS"])
      .openapi({ description: "REST: to work inside the rest between shifts; ADDED_HOURS: to added hours." }),
    scheduleEntryId: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .openapi({ description: "Only for this entry; omitted: any entry that names it." }),
    note: z.string().trim().max(1000).optional(),
  })
  .openapi("ConsentCreate");

export const ConsentParams = OrganizationParams.extend({ id: idParam("id", "Staff member id") });

export const serializeConsent = (row: ConsentRow): z.infer<typeof Consent> => ({
  id: row.id,
  employeeId: row.employeeId,
  kind: row.kind,
  scheduleEntryId: row.scheduleEntryId,
  note: row.note,
  createdAt: iso(row.createdAt),
});
