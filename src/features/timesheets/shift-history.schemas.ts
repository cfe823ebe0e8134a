import { z } from "@hono/zod-openapi";
import type { RecordVersionRow } from "@/data/audit/record-history";
import { ACTOR_TYPES, type ActorType } from "@/domain/audit";
import { serializeEventData } from "@/event-forms/serializers";
import { PageQuery } from "@/platform/schemas/list-query";
import { iso } from "@/platform/schemas/time";
import { OrganizationQuery } from "./timesheets.schemas";

export const ShiftHistoryQuery = OrganizationQuery.extend(PageQuery.shape);

const shiftForm = z.unknown().openapi({ description: "The shift as the API answered it (GET /timesheets/{id}'s shape, breaks included)." });

export const ShiftVersion = z
  .object({
    version: z
      .number()
      .int()
      .min(1)
      .openapi({ description: "1 for the shift's first recorded write, then one more per write.", example: 2 }),
    at: z.string().openapi({ format: "date-time", description: "When the write happened.", example: "2026-03-14T17:05:00.000Z" }),
    actor: z
      .object({
        type: z.enum(ACTOR_TYPES),
        id: z.string().openapi({ description: "The partner's id, the staff member's or the kiosk device's." }),
        deviceId: z.string().nullable().openapi({ description: "The kiosk device the write came through, if any." }),
      })
      .openapi({ description: "Who wrote." }),
    operationId: z
      .string()
      .nullable()
      .openapi({ description: "The operation that wrote (the document's operationId); null for none.", example: "updateTimesheetShift" }),
    before: shiftForm
      .nullable()
      .openapi({ description: "The shift before the write: null when the write created it (or its last change predates the log)." }),
    after: shiftForm.openapi({ description: "The shift as the write left it (a delete's: the deleted shift, `deletedAt` set)." }),
  })
  .openapi("ShiftVersion");

const formed = (form: string | null, json: string | null) => (form === null || json === null ? null : serializeEventData(form, json));

export const serializeShiftVersion = (row: RecordVersionRow) => ({
  version: row.version,
  at: iso(row.at),
  actor: { type: row.actorType as ActorType, id: row.actorId, deviceId: row.deviceId },
  operationId: row.operationId,
  before: formed(row.beforeForm, row.before),
  after: formed(row.afterForm, row.after),
});
