import { pinFailures, staffMemberPins, staffMembers } from "@db/schema";
import { and, eq, sql } from "drizzle-orm";
import type { Statement } from "@/data/client";
import { inOrganization } from "@/data/tenancy";
import { guardedBatch, type Writer } from "@/data/write/guarded-batch";
import { notFound } from "@/problems/problem";
import { pinUnlockedEvent, pinUpdatedEvent } from "./kiosk.events";
import { hashPin } from "./pin-hash";

const liveMember = (organizationId: string, employeeId: string) =>
  sql`EXISTS (SELECT 1 FROM ${staffMembers} WHERE ${staffMembers.id} = ${employeeId}
    AND ${staffMembers.organizationId} = ${organizationId} AND ${staffMembers.deletedAt} IS NULL)`;

/**
 * Sets (or replaces) the member's PIN: one upsert, written only while the member is live in the organization (else
 * 404), with its `staff_member.pin_updated` event in the same batch. Only the salted hash is stored.
 */
export async function setPin(writer: Writer, organizationId: string, employeeId: string, pin: string, now = new Date()) {
  const { hash, salt, iterations } = await hashPin(pin);
  const upsert = writer.db
    .insert(staffMemberPins)
    .select(
      sql`SELECT ${employeeId}, ${organizationId}, ${hash}, ${salt}, ${iterations}, ${now.getTime()} WHERE ${liveMember(organizationId, employeeId)}`,
    )
    .onConflictDoUpdate({
      target: staffMemberPins.employeeId,
      set: { hash, salt, iterations, updatedAt: now },
    })
    .returning({ employeeId: staffMemberPins.employeeId }) as unknown as Statement;
  const [rows] = await guardedBatch(writer, [upsert], [], { events: [pinUpdatedEvent(organizationId, employeeId, true, now)] });
  if (!(rows as unknown[])[0]) throw notFound("Staff member");
}

async function assertMember(writer: Writer, organizationId: string, employeeId: string) {
  const [member] = await writer.db
    .select({ id: staffMembers.id })
    .from(staffMembers)
    .where(and(inOrganization(staffMembers, organizationId), eq(staffMembers.id, employeeId)));
  if (!member) throw notFound("Staff member");
}

/** Removes the member's PIN (none: nothing changes and no event). */
export async function removePin(writer: Writer, organizationId: string, employeeId: string, now = new Date()) {
  await assertMember(writer, organizationId, employeeId);
  const remove = writer.db
    .delete(staffMemberPins)
    .where(and(eq(staffMemberPins.organizationId, organizationId), eq(staffMemberPins.employeeId, employeeId)));
  await guardedBatch(writer, [remove], [], { events: [pinUpdatedEvent(organizationId, employeeId, false, now)] });
}

/** Lifts the lock: the member's wrong PINs are forgotten (none: nothing changes and no event). */
export async function liftPinLock(writer: Writer, organizationId: string, employeeId: string, now = new Date()) {
  await assertMember(writer, organizationId, employeeId);
  const forget = writer.db
    .delete(pinFailures)
    .where(and(eq(pinFailures.organizationId, organizationId), eq(pinFailures.employeeId, employeeId)));
  await guardedBatch(writer, [forget], [], { events: [pinUnlockedEvent(organizationId, employeeId, now)] });
}
