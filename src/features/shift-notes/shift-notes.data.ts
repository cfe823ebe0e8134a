import { shiftNotes, shifts, staffMembers } from "@db/schema";
import { and, asc, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import type { Database } from "@/data/client";
import { inOrganization } from "@/data/tenancy";
import { guard } from "@/data/write/guard";
import { guardedBatch, type Writer } from "@/data/write/guarded-batch";
import { decodeIdCursor } from "@/platform/http/pagination";
import { notFound } from "@/problems/problem";
import { noOpenShift } from "@/problems/shifts";

const openShiftOf = (organizationId: string, staffMemberId: string) =>
  and(inOrganization(shifts, organizationId), eq(shifts.employeeId, staffMemberId), isNull(shifts.endAt));

/** shift_notes.shift_id: the staff member's open shift, resolved inside the insert (NULL when none is open by then). */
const onTheOpenShift = guard({
  column: shiftNotes.shiftId,
  problem: noOpenShift,
  sql: (organizationId: string, staffMemberId: string) =>
    sql`(SELECT ${shifts.id} FROM ${shifts} WHERE ${openShiftOf(organizationId, staffMemberId)})`,
});

export async function assertStaffMember(db: Database, organizationId: string, id: string) {
  const [member] = await db
    .select({ id: staffMembers.id })
    .from(staffMembers)
    .where(and(inOrganization(staffMembers, organizationId), eq(staffMembers.id, id)));
  if (!member) throw notFound("Staff member");
}

/**
 * A page of the notes on the staff member's open shift, read with its extra row (the handler's `pageResult`), in one
 * batch with the staff member (404) and their open shift (409 NO_OPEN_SHIFT).
 */
export async function openShiftNotes(
  db: Database,
  organizationId: string,
  staffMemberId: string,
  page: { limit: number; cursor?: string },
) {
  const { limit, cursor } = page;
  const after = cursor ? gt(shiftNotes.id, decodeIdCursor(cursor)) : undefined;
  const [member, open, notes] = await db.batch([
    db
      .select({ id: staffMembers.id })
      .from(staffMembers)
      .where(and(inOrganization(staffMembers, organizationId), eq(staffMembers.id, staffMemberId))),
    db.select({ id: shifts.id }).from(shifts).where(openShiftOf(organizationId, staffMemberId)),
    // No join: D1 answers rows keyed by column name, so a joined shifts.id would overwrite the note's id.
    db
      .select()
      .from(shiftNotes)
      .where(
        and(
          inArray(shiftNotes.shiftId, db.select({ id: shifts.id }).from(shifts).where(openShiftOf(organizationId, staffMemberId))),
          after,
        ),
      )
      .orderBy(asc(shiftNotes.id))
      .limit(limit + 1),
  ]);
  if (!member[0]) throw notFound("Staff member");
  if (!open[0]) throw noOpenShift();
  return notes;
}

/** Stores a note on the staff member's open shift (resolved inside the insert) with its event. */
export async function insertShiftNote(
  writer: Writer,
  organizationId: string,
  staffMemberId: string,
  note: { id: string; organizationId: string; authorId: string; text: string; createdAt: Date },
) {
  const [[row]] = await guardedBatch(
    writer,
    [
      writer.db
        .insert(shiftNotes)
        .values({ ...note, shiftId: onTheOpenShift.sql(organizationId, staffMemberId) })
        .returning(),
    ],
    [onTheOpenShift],
    {
      events: [
        {
          type: "shift_note.created",
          organizationId: organizationId,
          occurredAt: note.createdAt,
          row: { table: shiftNotes, where: eq(shiftNotes.id, note.id) },
        },
      ],
    },
  );
  return row!;
}
