import type { shiftRequests } from "@db/schema";
import { z } from "@hono/zod-openapi";
import { CANCEL_REASONS } from "@/data/shift-requests/shift-request-endings.data";
import { idParam } from "@/platform/openapi/helpers";
import { PageQuery } from "@/platform/schemas/list-query";
import { iso } from "@/platform/schemas/time";
import { Timestamp } from "@/platform/schemas/validation";
import { Id, LocationParams, WorkingTimeOverride } from "./schedules.schemas";

export type ShiftRequestRow = typeof shiftRequests.$inferSelect;

export const SHIFT_REQUEST_TYPES = ["DROP", "SWAP"] as const;
export const SHIFT_REQUEST_STATUSES = ["PENDING", "ACCEPTED", "APPROVED", "DECLINED", "CANCELLED", "EXPIRED"] as const;
type Status = (typeof SHIFT_REQUEST_STATUSES)[number];

export const ShiftRequest = z
  .object({
    id: z.string(),
    type: z.enum(SHIFT_REQUEST_TYPES),
    status: z.enum(SHIFT_REQUEST_STATUSES).openapi({
      description:
        "PENDING → ACCEPTED → APPROVED, or DECLINED / CANCELLED; a PENDING or ACCEPTED request whose entry (or, for a " +
        "swap, the entry given back) has started reads EXPIRED. A change of either entry's time or worker, or its " +
        "deletion, ends a live request: CANCELLED with `cancelReason`.",
    }),
    cancelReason: z
      .enum(CANCEL_REASONS)
      .nullable()
      .openapi({
        description:
          "Why a CANCELLED request ended (null otherwise): ENTRY_CHANGED (a manager, or another request's approval, " +
          "changed the time or worker of one of its entries), ENTRY_DELETED (one of its entries was deleted, e.g. by " +
          "the approval of time off with cancelConflictingEntries), REQUESTER_CANCELLED, MANAGER_CANCELLED.",
      }),
    scheduleEntryId: z.string(),
    requesterId: z.string().openapi({ description: "The worker of the entry given away." }),
    targetEmployeeId: z.string().nullable().openapi({ description: "Null: an open drop any colleague at the location may accept." }),
    targetScheduleEntryId: z.string().nullable().openapi({ description: "SWAP: the target's entry given back, if any." }),
    acceptedBy: z.string().nullable(),
    decidedBy: z.string().nullable(),
    note: z.string().nullable(),
    expiresAt: Timestamp.openapi({
      description: "The entry's start (for a swap giving an entry back, the earlier of the two starts): the request expires then.",
    }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("ShiftRequest");

export const ShiftRequestCreate = z
  .object({
    type: z.enum(SHIFT_REQUEST_TYPES),
    scheduleEntryId: Id,
    targetEmployeeId: Id.optional().openapi({ description: "SWAP: required. DROP: optional; without it, open to every colleague." }),
    targetScheduleEntryId: Id.optional().openapi({ description: "SWAP only: the target's published entry they give back." }),
    note: z.string().max(1000).optional(),
  })
  .openapi("ShiftRequestCreate");

export const ShiftRequestListQuery = z.object({
  ...PageQuery.shape,
  status: z
    .enum(SHIFT_REQUEST_STATUSES)
    .optional()
    .openapi({ param: { name: "status", in: "query" } }),
});

export const ShiftRequestParams = LocationParams.extend({ id: idParam("id", "Shift request id") });

/** The status a request reads: a live one whose entry has started has expired. */
export const statusAt = (row: Pick<ShiftRequestRow, "status" | "expiresAt">, now: Date): Status =>
  (row.status === "PENDING" || row.status === "ACCEPTED") && row.expiresAt <= now ? "EXPIRED" : (row.status as Status);

export const serializeShiftRequest = (row: ShiftRequestRow, now = new Date()): z.infer<typeof ShiftRequest> => ({
  id: row.id,
  type: row.type as z.infer<typeof ShiftRequest>["type"],
  status: statusAt(row, now),
  cancelReason: row.status === "CANCELLED" ? (row.cancelReason as z.infer<typeof ShiftRequest>["cancelReason"]) : null,
  scheduleEntryId: row.scheduleEntryId,
  requesterId: row.requesterId,
  targetEmployeeId: row.targetEmployeeId,
  targetScheduleEntryId: row.targetScheduleEntryId,
  acceptedBy: row.acceptedBy,
  decidedBy: row.decidedBy,
  note: row.note,
  expiresAt: iso(row.expiresAt),
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
});

export const ShiftRequestApprove = z.object({ workingTimeOverride: WorkingTimeOverride }).openapi("ShiftRequestApprove", {
  description:
    "Optional. `workingTimeOverride`: approve although an entry, as its new worker's, breaks the location's working-time " +
    "rules (otherwise 409 WORKING_TIME_CONFLICT): needs WORKING_TIME_OVERRIDE (403 without it); each entry keeps the " +
    "reason, the caller and its own violations.",
});
