import type { openShiftPreferences, openShifts } from "@db/schema";
import { z } from "@hono/zod-openapi";
import { localWallClock } from "@/domain/local-time";
import { isFullyClaimed } from "@/domain/open-shift-claim";
import { idParam } from "@/platform/openapi/helpers";
import { ListQuery } from "@/platform/schemas/list-query";
import { iso, isoOrNull } from "@/platform/schemas/time";
import { Name, Timestamp, TimestampOrNull, TimeZone, UtcOffset } from "@/platform/schemas/validation";
import { BreakIds, EntryUtcOffset, Id, LocationParams, RangeFields, WallClock, WorkingTimeOverride } from "./schedules.schemas";

export type OpenShiftRow = typeof openShifts.$inferSelect;
export type PreferenceRow = typeof openShiftPreferences.$inferSelect;

export const OpenShiftParams = LocationParams.extend({ id: idParam("id", "Open shift id") });
export const PreferenceParams = OpenShiftParams.extend({ preferenceId: idParam("preferenceId", "Preference id") });

export const OpenShiftListQuery = ListQuery.extend({
  startDate: RangeFields.startDate.optional(),
  endDate: RangeFields.endDate.optional(),
});

const PreferenceValue = z.enum(["PREFERRED", "NOT_PREFERRED"]).openapi({ example: "PREFERRED" });
const Status = z.enum(["PENDING", "APPROVED", "DECLINED", "RETRACTED"]).openapi({ example: "PENDING" });

const preferenceFields = {
  id: z.string().openapi({ example: "0193a5a0-7c1e-7b2a-9d4e-1f2a3b4c5d6e" }),
  openShiftId: z.string(),
  workerId: z.string(),
  worker: z.object({ id: z.string(), externalId: z.string().nullable() }),
  scheduleShiftId: z.string().nullable().openapi({ description: "The published schedule entry its approval created." }),
  preference: PreferenceValue,
  status: Status,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  draft: z
    .object({ assignedAt: TimestampOrNull })
    .nullable()
    .openapi({ description: "A draft assignment (on a draft open shift, applied at publish); null otherwise." }),
};

export const DraftPreference = z.object(preferenceFields).openapi("OpenShiftDraftPreference");

export const Preference = z
  .object({ ...preferenceFields, isDraft: z.boolean().openapi({ description: "A draft assignment, applied at publish." }) })
  .openapi("OpenShiftPreference");

export const OpenShift = z
  .object({
    id: z.string().openapi({ example: "0193a5a0-7c1e-7b2a-9d4e-1f2a3b4c5d6e" }),
    tenantId: z.string().openapi({ description: "The partner the organization belongs to." }),
    organizationId: z.string(),
    locationId: z.string(),
    location: z.object({ externalId: z.string().nullable() }),
    roleId: z.string(),
    roleName: z.string().openapi({ example: "Barista" }),
    startDate: Timestamp.openapi({ description: "Local wall-clock time written with Z: utcStartDate + utcOffset." }),
    endDate: Timestamp,
    utcStartDate: Timestamp,
    utcEndDate: Timestamp,
    breaks: z.array(z.string()).openapi({ description: "Break type ids of the location." }),
    staffCountRequired: z.number().int().openapi({ example: 2 }),
    requireApproval: z.boolean(),
    timezone: z.string().openapi({ example: "America/New_York" }),
    utcOffset: z.number().int().openapi({ example: -240 }),
    preferences: z.array(Preference),
    draftPreferences: z.array(DraftPreference),
    isDraft: z.boolean(),
    isPublished: z.boolean(),
    isFullyClaimed: z.boolean().openapi({ description: "Approved places (draft assignments included) equal staffCountRequired." }),
    active: z.boolean(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    deletedAt: TimestampOrNull,
  })
  .openapi("OpenShift");

/** A number or an integer string, as `utcOffset`: the document declares both forms and their range. */
const StaffCount = z
  .union([
    z.number().openapi({ type: "integer", minimum: 1, maximum: 500 }),
    z
      .string()
      .regex(/^\d{1,3}$/, "must be a whole number")
      .openapi({ description: "The same count as an integer string, 1 to 500." }),
  ])
  .transform(Number)
  .pipe(z.number().int().min(1).max(500))
  .openapi({ example: 2, description: "Places to fill, 1 to 500: a number or an integer string." });

const roleFields = {
  roleId: Id.optional().openapi({ description: "An existing role; or name one with roleName." }),
  roleName: Name.max(100)
    .optional()
    .openapi({ description: "Names an existing role of the organization, or creates it.", example: "Barista" }),
};

export const OpenShiftCreate = z
  .object({
    ...roleFields,
    startDate: WallClock,
    endDate: WallClock,
    breaks: BreakIds.default([]),
    staffCountRequired: StaffCount.default(1),
    requireApproval: z.boolean().default(false),
    timezone: TimeZone.optional().openapi({ description: "Default: the location's zone. Read the times in it when utcOffset is omitted." }),
    utcOffset: EntryUtcOffset,
    publish: z.boolean().default(false).openapi({ description: "Publish at once; by default a new open shift is a draft." }),
  })
  .refine((body) => body.roleId !== undefined || body.roleName !== undefined, { message: "send roleId or roleName", path: ["roleName"] })
  .openapi("OpenShiftCreate");

export const OpenShiftPatch = z
  .object({
    ...roleFields,
    startDate: WallClock.optional(),
    endDate: WallClock.optional(),
    breaks: BreakIds.optional(),
    staffCountRequired: StaffCount.optional(),
    requireApproval: z.boolean().optional(),
    utcOffset: UtcOffset.openapi({ description: "Minutes east of UTC. Omitted or null: the open shift's own utcOffset." }),
  })
  .refine((body) => Object.values(body).some((v) => v !== undefined), "send at least one field")
  .openapi("OpenShiftPatch");

const WorkerId = Id.optional().openapi({ description: "The staff member; default the caller. Others need SCHEDULE_WRITE." });

export const WorkerBody = z.object({ workerId: WorkerId }).openapi("OpenShiftWorkerRequest");

const ApprovalOverride = WorkingTimeOverride.openapi({
  description:
    "Approve although the entry breaks the location's working-time rules (otherwise 409 WORKING_TIME_CONFLICT): " +
    "needs WORKING_TIME_OVERRIDE (a manager's; 403 without it); the entry keeps the reason, the caller and its violations.",
});

export const ClaimBody = z.object({ workerId: WorkerId, workingTimeOverride: ApprovalOverride }).openapi("OpenShiftClaimRequest");

export const PreferenceCreate = z.object({ workerId: WorkerId, preference: PreferenceValue }).openapi("OpenShiftPreferenceCreate");

export const PreferencePatch = z.object({ preference: PreferenceValue }).openapi("OpenShiftPreferencePatch");

export const BulkAssignBody = z
  .object({
    preferenceIds: z.array(Id).min(1).max(100),
    ignoreAvailability: z.boolean().default(false).openapi({
      description: "Assign even where a worker's availability says UNAVAILABLE (a manager's override).",
    }),
    workingTimeOverride: ApprovalOverride,
  })
  .openapi("OpenShiftBulkAssignRequest");

export interface PreferenceWithWorker {
  preference: PreferenceRow;
  workerExternalId: string | null;
}

export function serializePreference({ preference: p, workerExternalId }: PreferenceWithWorker): z.infer<typeof Preference> {
  return {
    id: p.id,
    openShiftId: p.openShiftId,
    workerId: p.workerId,
    worker: { id: p.workerId, externalId: workerExternalId },
    scheduleShiftId: p.scheduleShiftId,
    preference: p.preference,
    status: p.status,
    createdAt: iso(p.createdAt),
    updatedAt: iso(p.updatedAt),
    isDraft: p.isDraft,
    draft: p.isDraft ? { assignedAt: isoOrNull(p.assignedAt) } : null,
  };
}

/** A preference's own fields, without its `worker` block (events recorded by earlier builds, event-forms/serializers). */
export function serializePreferenceRecord(preference: PreferenceRow) {
  const { worker: _worker, ...record } = serializePreference({ preference, workerExternalId: null });
  return record;
}

export interface OpenShiftView {
  shift: OpenShiftRow;
  tenantId: string;
  roleName: string;
  locationExternalId: string | null;
  preferences: PreferenceWithWorker[];
  /** Approved places of every worker (the preferences shown may be the caller's own only). */
  approvedPlaces: number;
}

export function serializeOpenShift(view: OpenShiftView): z.infer<typeof OpenShift> {
  const { shift } = view;
  const live = view.preferences.filter((p) => p.preference.deletedAt === null);
  return {
    id: shift.id,
    tenantId: view.tenantId,
    organizationId: shift.organizationId,
    locationId: shift.locationId,
    location: { externalId: view.locationExternalId },
    roleId: shift.roleId,
    roleName: view.roleName,
    startDate: localWallClock(shift.startAt, shift.utcOffset),
    endDate: localWallClock(shift.endAt, shift.utcOffset),
    utcStartDate: iso(shift.startAt),
    utcEndDate: iso(shift.endAt),
    breaks: shift.breaks,
    staffCountRequired: shift.staffCountRequired,
    requireApproval: shift.requireApproval,
    timezone: shift.timezone,
    utcOffset: shift.utcOffset,
    preferences: live.map(serializePreference),
    draftPreferences: live
      .filter((p) => p.preference.isDraft)
      .map((p) => {
        const { isDraft: _omitted, ...rest } = serializePreference(p);
        return rest;
      }),
    isDraft: shift.isDraft,
    isPublished: !shift.isDraft,
    isFullyClaimed: isFullyClaimed(view.approvedPlaces, shift.staffCountRequired),
    active: shift.active,
    createdAt: iso(shift.createdAt),
    updatedAt: iso(shift.updatedAt),
    deletedAt: isoOrNull(shift.deletedAt),
  };
}

export type OpenShiftCreateInput = z.infer<typeof OpenShiftCreate>;
export type OpenShiftPatchInput = z.infer<typeof OpenShiftPatch>;
export type OpenShiftListInput = z.infer<typeof OpenShiftListQuery>;
