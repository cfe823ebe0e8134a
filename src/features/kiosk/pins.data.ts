import { accessRoles, pinFailures, staffMemberPins, staffMembers } from "@db/schema";
import { and, eq, sql } from "drizzle-orm";
import { hashPin } from "@/auth/pins/pin-hash";
import type { Statement } from "@/data/client";
import { inOrganization } from "@/data/tenancy";
import { guardedBatch, type Writer } from "@/data/write/guarded-batch";
import { expandPermissions, type Principal } from "@/domain/permissions";
import { forbidden, notFound } from "@/problems/problem";
import { pinUnlockedEvent, pinUpdatedEvent } from "./kiosk.events";

const liveMember = (organizationId: string, employeeId: string) =>
  sql`EXISTS (SELECT 1 FROM ${staffMembers} WHERE ${staffMembers.id} = ${employeeId}
    AND ${staffMembers.organizationId} = ${organizationId} AND ${staffMembers.deletedAt} IS NULL)`;

/**
 * The caller may set or remove this member's PIN: the member themself, or a caller holding every permission of the
 * member's access role (nobody manages someone above them: a Manager cannot set an Admin's PIN and punch as them).
 * A SQL condition, so the write that depends on it checks it, not a read before it.
 */
function manageableBy(principal: Principal, organizationId: string, employeeId: string) {
  if (principal.staffMemberId === employeeId) return sql`1`;
  const held = JSON.stringify([...expandPermissions(principal.permissions)]);
  return sql`NOT EXISTS (SELECT 1 FROM ${staffMembers} m JOIN ${accessRoles} r ON r.id = m.access_role_id, json_each(r.permissions) p
    WHERE m.id = ${employeeId} AND m.organization_id = ${organizationId} AND p.value NOT IN (SELECT value FROM json_each(${held})))`;
}

const aboveCaller = () =>
  forbidden("The staff member holds an access role you may not grant; you cannot set or remove their PIN, or lift its lock.");

/** Whether the member is live but above the caller (the write's condition failed for that reason, not a 404). */
async function refusedAsAbove(writer: Writer, organizationId: string, employeeId: string) {
  const [row] = await writer.db
    .select({ id: staffMembers.id })
    .from(staffMembers)
    .where(and(inOrganization(staffMembers, organizationId), eq(staffMembers.id, employeeId)));
  return Boolean(row);
}

/**
 * Sets (or replaces) the member's PIN: one upsert, written only while the member is live in the organization (else
 * 404) and the caller may manage them (else 403), with its `staff_member.pin_updated` event in the same batch. Only
 * the salted hash is stored.
 */
export async function setPin(writer: Writer, organizationId: string, employeeId: string, pin: string, now = new Date()) {
  const { hash, salt, iterations } = await hashPin(pin);
  const upsert = writer.db
    .insert(staffMemberPins)
    .select(
      sql`SELECT ${employeeId}, ${organizationId}, ${hash}, ${salt}, ${iterations}, ${now.getTime()} WHERE ${liveMember(organizationId, employeeId)} AND ${manageableBy(writer.principal, organizationId, employeeId)}`,
    )
    .onConflictDoUpdate({
      target: staffMemberPins.employeeId,
      set: { hash, salt, iterations, updatedAt: now },
    })
    .returning({ employeeId: staffMemberPins.employeeId }) as unknown as Statement;
  const [rows] = await guardedBatch(writer, [upsert], [], { events: [pinUpdatedEvent(organizationId, employeeId, true, now)] });
  if ((rows as unknown[])[0]) return;
  throw (await refusedAsAbove(writer, organizationId, employeeId)) ? aboveCaller() : notFound("Staff member");
}

async function assertMember(writer: Writer, organizationId: string, employeeId: string) {
  const [member] = await writer.db
    .select({ id: staffMembers.id })
    .from(staffMembers)
    .where(and(inOrganization(staffMembers, organizationId), eq(staffMembers.id, employeeId)));
  if (!member) throw notFound("Staff member");
}

/** Removes the member's PIN (none: nothing changes and no event); a member above the caller is 403. */
export async function removePin(writer: Writer, organizationId: string, employeeId: string, now = new Date()) {
  await assertMember(writer, organizationId, employeeId);
  const manageable = manageableBy(writer.principal, organizationId, employeeId);
  const [[allowed]] = await writer.db.batch([writer.db.select({ ok: sql<number>`${manageable}` }).from(sql`(SELECT 1)`)]);
  if (!allowed?.ok) throw aboveCaller();
  const remove = writer.db
    .delete(staffMemberPins)
    .where(and(eq(staffMemberPins.organizationId, organizationId), eq(staffMemberPins.employeeId, employeeId), manageable));
  await guardedBatch(writer, [remove], [], { events: [pinUpdatedEvent(organizationId, employeeId, false, now)] });
}

/**
 * Lifts the lock: the member's wrong PINs at every location are forgotten (none: nothing changes and no event). A
 * member above the caller is 403, as setting their PIN is: a lock lifted is five more guesses at an Admin's PIN.
 */
export async function liftPinLock(writer: Writer, organizationId: string, employeeId: string, now = new Date()) {
  await assertMember(writer, organizationId, employeeId);
  const manageable = manageableBy(writer.principal, organizationId, employeeId);
  const [[allowed]] = await writer.db.batch([writer.db.select({ ok: sql<number>`${manageable}` }).from(sql`(SELECT 1)`)]);
  if (!allowed?.ok) throw aboveCaller();
  const forget = writer.db
    .delete(pinFailures)
    .where(and(eq(pinFailures.organizationId, organizationId), eq(pinFailures.employeeId, employeeId), manageable));
  await guardedBatch(writer, [forget], [], { events: [pinUnlockedEvent(organizationId, employeeId, now)] });
}
