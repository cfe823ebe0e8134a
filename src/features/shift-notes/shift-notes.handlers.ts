import { shiftNotes, shifts, staffMembers } from "@db/schema";
import { and, asc, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import type { Database } from "@/data/client";
import { newId } from "@/data/ids";
import { inOrganization } from "@/data/tenancy";
import { guard } from "@/data/write/guard";
import { guardedBatch } from "@/data/write/guarded-batch";
import type { AppRouteHandler } from "@/platform/http/env";
import { decodeIdCursor, pageResult } from "@/platform/http/pagination";
import { notFound } from "@/problems/problem";
import { noOpenShift } from "@/problems/shifts";
import type * as routes from "./shift-notes.routes";
import { serializeShiftNote } from "./shift-notes.schemas";

const openShiftOf = (organizationId: string, staffMemberId: string) =>
  and(inOrganization(shifts, organizationId), eq(shifts.employeeId, staffMemberId), isNull(shifts.endAt));

/** shift_notes.shift_id: the staff member's open shift, resolved inside the insert (NULL when none is open by then). */
const onTheOpenShift = guard({
  column: shiftNotes.shiftId,
  problem: noOpenShift,
  sql: (organizationId: string, staffMemberId: string) =>
    sql`(SELECT ${shifts.id} FROM ${shifts} WHERE ${openShiftOf(organizationId, staffMemberId)})`,
});

async function assertStaffMember(db: Database, organizationId: string, id: string) {
  const [member] = await db
    .select({ id: staffMembers.id })
    .from(staffMembers)
    .where(and(inOrganization(staffMembers, organizationId), eq(staffMembers.id, id)));
  if (!member) throw notFound("Staff member");
}

export const list: AppRouteHandler<routes.ListRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  const { limit, cursor } = c.req.valid("query");
  const db = c.var.db;
  const after = cursor ? gt(shiftNotes.id, decodeIdCursor(cursor)) : undefined;
  const [member, open, notes] = await db.batch([
    db
      .select({ id: staffMembers.id })
      .from(staffMembers)
      .where(and(inOrganization(staffMembers, organization_id), eq(staffMembers.id, id))),
    db.select({ id: shifts.id }).from(shifts).where(openShiftOf(organization_id, id)),
    // No join: D1 answers rows keyed by column name, so a joined shifts.id would overwrite the note's id.
    db
      .select()
      .from(shiftNotes)
      .where(and(inArray(shiftNotes.shiftId, db.select({ id: shifts.id }).from(shifts).where(openShiftOf(organization_id, id))), after))
      .orderBy(asc(shiftNotes.id))
      .limit(limit + 1),
  ]);
  if (!member[0]) throw notFound("Staff member");
  if (!open[0]) throw noOpenShift();
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
    createdAt: new Date(),
  };
  const [[row]] = await guardedBatch(
    c.var,
    [
      c.var.db
        .insert(shiftNotes)
        .values({ ...note, shiftId: onTheOpenShift.sql(organization_id, id) })
        .returning(),
    ],
    [onTheOpenShift],
    {
      events: [
        {
          type: "shift_note.created",
          organizationId: organization_id,
          occurredAt: note.createdAt,
          row: { table: shiftNotes, where: eq(shiftNotes.id, note.id) },
        },
      ],
    },
  );
  return c.json(serializeShiftNote(row!), 201);
};
