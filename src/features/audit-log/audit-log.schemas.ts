import type { auditLog } from "@db/schema";
import { z } from "@hono/zod-openapi";
import { ACTOR_TYPES } from "@/domain/audit";
import { serializeEventData } from "@/event-forms/serializers";
import { PageQuery } from "@/platform/schemas/list-query";
import { iso } from "@/platform/schemas/time";
import { Instant } from "@/platform/schemas/validation";

type AuditRow = typeof auditLog.$inferSelect;

const text = (max: number, description: string, example: string) => z.string().min(1).max(max).optional().openapi({ description, example });

export const AuditLogQuery = PageQuery.extend({
  resourceType: z
    .string()
    .regex(/^[a-z_]{1,64}$/, "must be a resource type such as shift or time_off_request")
    .optional()
    .openapi({ description: "Only entries about this kind of record (an event type's part before the dot).", example: "shift" }),
  resourceId: text(64, "Only entries about this record (e.g. a shift's id): its history.", "0193a5a0-7c1e-7b2a-9d4e-000000000001"),
  actorId: text(255, "Only entries this actor wrote: a staff member's, device's or partner's id.", "dev-partner"),
  staffMemberId: text(
    64,
    "Only entries about records of this staff member (their shifts, requests, wages…).",
    "0193a5a0-7c1e-7b2a-9d4e-000000000003",
  ),
  startTime: Instant.optional().openapi({ description: "Only entries at or after this instant.", example: "2026-12-01T00:00:00Z" }),
  endTime: Instant.optional().openapi({ description: "Only entries before this instant.", example: "2026-12-31T00:00:00Z" }),
});

export type AuditLogFilters = z.infer<typeof AuditLogQuery>;

export const AuditEntry = z
  .object({
    id: z.string().openapi({ description: "The entry's id: the id of the event the write recorded (GET …/events)." }),
    at: z.string().openapi({ format: "date-time" }),
    actor: z.object({
      type: z.enum(ACTOR_TYPES),
      id: z.string().openapi({
        description:
          "The partner's id, the staff member's or the kiosk device's; for SYSTEM the job's (`attendance-pass`, " +
          "`pay-close-job`, `webhook-delivery`, `accrual-pass`), for OPERATOR `operator`.",
      }),
      deviceId: z.string().nullable().openapi({ description: "The kiosk device the write came through, if any." }),
    }),
    operationId: z
      .string()
      .nullable()
      .openapi({ description: "The operation that wrote (the document's operationId).", example: "updateTimesheet" }),
    eventType: z.string().openapi({ example: "shift.updated" }),
    resourceType: z.string().openapi({ example: "shift" }),
    resourceId: z.string().nullable(),
    staffMemberId: z.string().nullable().openapi({ description: "The staff member the record is about, if any." }),
    ipCountry: z
      .string()
      .nullable()
      .openapi({ description: "The caller's IP country (ISO 3166-1 alpha-2) as the edge located it.", example: "DE" }),
    before: z
      .unknown()
      .openapi({ description: "Disputable records: the record before the write (null: created here, or before the log)." }),
    after: z.unknown().openapi({ description: "Disputable records: the record as the write left it; null for other records." }),
  })
  .openapi("AuditEntry");

const formed = (form: string | null, json: string | null) => (form === null || json === null ? null : serializeEventData(form, json));

export const serializeAuditEntry = (row: AuditRow) => ({
  id: row.id,
  at: iso(row.at),
  actor: { type: row.actorType as (typeof ACTOR_TYPES)[number], id: row.actorId, deviceId: row.deviceId },
  operationId: row.operationId,
  eventType: row.eventType,
  resourceType: row.resourceType,
  resourceId: row.resourceId,
  staffMemberId: row.staffMemberId,
  ipCountry: row.ipCountry,
  before: formed(row.beforeForm, row.before),
  after: formed(row.afterForm, row.after),
});
