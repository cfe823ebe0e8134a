import { z } from "@hono/zod-openapi";
import { authorize } from "@/auth/authorize";
import { jsonBody, jsonContent, problems } from "@/platform/openapi/helpers";
import { defineRoute } from "@/platform/routes/define-route";
import { PageQuery } from "@/platform/schemas/list-query";
import { ShiftNote, ShiftNoteCreate, StaffParams } from "./shift-notes.schemas";

const tags = ["Shift notes"];
const path = "/api/organizations/{organization_id}/staffmembers/{id}/shift-notes";

export const list = defineRoute({
  method: "get",
  path,
  operationId: "listShiftNotes",
  flags: { scope: "organization", list: true },
  tags,
  summary: "List shift notes from current shift",
  description: "Notes on the staff member's open shift, oldest first, paged like every list. 409 `NO_OPEN_SHIFT` without an open shift.",
  middleware: authorize("SHIFT_READ", { self: "id" }),
  request: { params: StaffParams, query: PageQuery },
  responses: { 200: jsonContent(z.array(ShiftNote), "The notes"), ...problems("STAFF_MEMBER_NOT_FOUND", "NO_OPEN_SHIFT") },
});

export const create = defineRoute({
  method: "post",
  path,
  operationId: "createShiftNote",
  flags: { scope: "organization", idempotency: "middleware" },
  tags,
  summary: "Create shift note on current shift",
  description: "Adds a note (1–2000 characters) to the staff member's open shift. 409 `NO_OPEN_SHIFT` without one.",
  middleware: authorize("SHIFT_WRITE", { self: "id" }),
  request: { params: StaffParams, body: jsonBody(ShiftNoteCreate) },
  responses: { 201: jsonContent(ShiftNote, "The created note"), ...problems("STAFF_MEMBER_NOT_FOUND", "NO_OPEN_SHIFT") },
});

export type ListRoute = typeof list;
export type CreateRoute = typeof create;
