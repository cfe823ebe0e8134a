import { newId } from "@/data/ids";
import { requestNow } from "@/platform/http/clock";
import type { AppRouteHandler } from "@/platform/http/env";
import { pageResult } from "@/platform/http/pagination";
import { assertStaffMember, insertShiftNote, openShiftNotes } from "./shift-notes.data";
import type * as routes from "./shift-notes.routes";
import { serializeShiftNote } from "./shift-notes.schemas";

export const list: AppRouteHandler<routes.ListRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  const { limit, cursor } = c.req.valid("query");
  const notes = await openShiftNotes(c.var.db, organization_id, id, { limit, cursor });
  return c.json(pageResult(c, notes, limit).map(serializeShiftNote), 200);
};

export const create: AppRouteHandler<routes.CreateRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  const { text } = c.req.valid("json");
  const principal = c.var.principal;
  await assertStaffMember(c.var.db, organization_id, id);
  const note = {
    id: newId(),
    organizationId: organization_id,
    authorId: principal.staffMemberId ?? principal.partnerId,
    text,
    createdAt: await requestNow(c),
  };
  const row = await insertShiftNote(c.var, organization_id, id, note);
  return c.json(serializeShiftNote(row), 201);
};
