import { pinFailures, staffMemberPins, staffMembers } from "@db/schema";
import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { Database } from "@/data/client";
import { newId } from "@/data/ids";
import { jsonArrayContains } from "@/data/json-list";
import { type Placeholders, prepared } from "@/data/prepared";
import type { DeviceGrant, Principal } from "@/domain/permissions";
import { PIN_MAX_FAILURES, pinLock, windowStart } from "@/domain/pin-lockout";
import { ProblemError, unauthorized } from "@/problems/problem";
import { pinMatches } from "./pin-hash";

/** The member a right PIN names: live, active, assigned to the device's location. */
export interface KioskStaffMember {
  id: string;
  name: string;
  organizationId: string;
}

export type PinVerdict = { ok: true; staffMember: KioskStaffMember } | { ok: false; problem: ProblemError };

/** One body for a wrong PIN, no PIN, and a member who is unknown, inactive or not of this location. */
export const pinIncorrect = () => unauthorized("PIN_INCORRECT", "That PIN is not right for that staff member.");

export const pinLocked = (retryAfterSeconds: number) =>
  new ProblemError(
    423,
    "PIN_LOCKED",
    `Too many wrong PINs for this staff member: their PIN is locked on this location's devices for ${retryAfterSeconds} s, or until a manager lifts the lock.`,
    {},
    { "Retry-After": String(retryAfterSeconds) },
  );

const failuresOf = (db: Database, organizationId: string, employeeId: string, locationId: string, now: Date) =>
  db
    .select({ failedAt: pinFailures.failedAt })
    .from(pinFailures)
    .where(
      and(
        eq(pinFailures.organizationId, organizationId),
        eq(pinFailures.employeeId, employeeId),
        eq(pinFailures.locationId, locationId),
        gt(pinFailures.failedAt, windowStart(now)),
      ),
    )
    .orderBy(asc(pinFailures.failedAt));

/**
 * Claims one of the member's five tries at the device's location in ONE conditional statement, before the PIN is
 * compared: it inserts a failure there only while fewer than five failures of the member at that location are inside
 * the window, and only for a member of the organization assigned to that location (a kiosk elsewhere must not lock
 * them out where they work). D1 runs writes one at a time, so of any number of concurrent guesses five at most per
 * location are ever compared. Answers the claim's id, or null when no try was left (or the member is not of the
 * organization, or not assigned there).
 */
async function claimTry(db: Database, organizationId: string, employeeId: string, device: DeviceGrant, now: Date) {
  const id = newId(now.getTime());
  const result = await db.run(sql`INSERT INTO ${pinFailures} (id, organization_id, employee_id, device_id, location_id, failed_at)
    SELECT ${id}, ${organizationId}, ${employeeId}, ${device.deviceId}, ${device.locationId}, ${now.getTime()}
    WHERE EXISTS (SELECT 1 FROM ${staffMembers} WHERE ${staffMembers.id} = ${employeeId} AND ${staffMembers.organizationId} = ${organizationId}
        AND ${jsonArrayContains(staffMembers.locationIds, device.locationId)})
      AND (SELECT count(*) FROM ${pinFailures} WHERE ${pinFailures.employeeId} = ${employeeId}
        AND ${pinFailures.locationId} = ${device.locationId}
        AND ${pinFailures.failedAt} > ${windowStart(now).getTime()}) < ${PIN_MAX_FAILURES}`);
  return (result.meta.changes ?? 0) > 0 ? id : null;
}

/** A right PIN gives its try back: only wrong PINs count toward the lock. */
const releaseTry = (db: Database, id: string) => db.delete(pinFailures).where(eq(pinFailures.id, id));

type MemberOf = Placeholders<{ organizationId: string; employeeId: string }>;
type MemberAt = MemberOf & Placeholders<{ locationId: string; after: number }>;

// The PIN check's reads, built once per isolate (data/prepared): a kiosk punch sends them in its read batch.
const memberRead = prepared((db, p: MemberOf) =>
  db
    .select({
      id: staffMembers.id,
      name: staffMembers.name,
      active: staffMembers.active,
      deletedAt: staffMembers.deletedAt,
      locationIds: staffMembers.locationIds,
    })
    .from(staffMembers)
    .where(and(eq(staffMembers.organizationId, p.organizationId), eq(staffMembers.id, p.employeeId))),
);
const storedPinRead = prepared((db, p: MemberOf) =>
  db
    .select({ hash: staffMemberPins.hash, salt: staffMemberPins.salt, iterations: staffMemberPins.iterations })
    .from(staffMemberPins)
    .where(and(eq(staffMemberPins.organizationId, p.organizationId), eq(staffMemberPins.employeeId, p.employeeId))),
);
const failuresRead = prepared((db, p: MemberAt) =>
  db
    .select({ failedAt: pinFailures.failedAt })
    .from(pinFailures)
    .where(
      and(
        eq(pinFailures.organizationId, p.organizationId),
        eq(pinFailures.employeeId, p.employeeId),
        eq(pinFailures.locationId, p.locationId),
        gt(pinFailures.failedAt, p.after),
      ),
    )
    .orderBy(asc(pinFailures.failedAt)),
);

/**
 * The three reads a PIN check at a device of `locationId` judges: the member, their stored PIN, and their failures
 * at that location inside the window.
 */
export const pinReads = (db: Database, organizationId: string, employeeId: string, locationId: string, now: Date) =>
  [
    memberRead(db, { organizationId, employeeId }),
    storedPinRead(db, { organizationId, employeeId }),
    failuresRead(db, { organizationId, employeeId, locationId, after: windowStart(now).getTime() }),
  ] as const;

export type PinRows = Awaited<ReturnType<typeof batchPinReads>>;
const batchPinReads = (db: Database, organizationId: string, employeeId: string, locationId: string, now: Date) =>
  db.batch(pinReads(db, organizationId, employeeId, locationId, now));

/**
 * The kiosk's PIN check for a device principal: `{ok: true, staffMember}` for the right PIN of a live, active member
 * assigned to the device's location; else the problem to answer. Locked (five wrong PINs at the device's location
 * within 15 minutes) is 423 PIN_LOCKED with Retry-After, even for the right PIN, and so is a guess that finds the five
 * tries taken by concurrent ones (judgeKioskPin). A wrong PIN, no PIN and an unknown, inactive or other location's
 * member are the same 401 PIN_INCORRECT, after the same PBKDF2 derivation (timing alike); each wrong PIN of a member
 * assigned to the device's location counts toward their lock there.
 */
export async function verifyKioskPin(
  db: Database,
  principal: Principal,
  employeeId: string,
  pin: string,
  now = new Date(),
): Promise<PinVerdict> {
  const organizationId = principal.organizationId;
  if (!principal.device || organizationId === null) return { ok: false, problem: pinIncorrect() };
  const rows = await batchPinReads(db, organizationId, employeeId, principal.device.locationId, now);
  return judgeKioskPin(db, principal, employeeId, pin, rows, now);
}

/**
 * The verdict on the rows of `pinReads`, read by the caller (a kiosk punch reads them in its own read batch: one D1
 * round trip for the PIN and the punch). A try is counted before it is judged: a member's PIN is compared only after
 * claiming one of their five tries at the device's location (claimTry), so a 423 means the PIN was not tried; a right
 * PIN then gives its try back, a wrong one keeps it as its failure. A member not assigned to the device's location is
 * always 401 and counts nothing there, so their PIN is never compared there: a guess answers the same whatever it is,
 * which makes an unlimited number of them worthless.
 */
export async function judgeKioskPin(
  db: Database,
  principal: Principal,
  employeeId: string,
  pin: string,
  [members, pins, failures]: PinRows,
  now: Date,
): Promise<PinVerdict> {
  const organizationId = principal.organizationId;
  const device = principal.device;
  if (!device || organizationId === null) return { ok: false, problem: pinIncorrect() };
  const member = members[0];
  const assigned = member?.locationIds.includes(device.locationId) === true;
  if (assigned) {
    const lock = pinLock(
      failures.map((f) => f.failedAt),
      now,
    );
    if (lock.locked) return { ok: false, problem: pinLocked(lock.retryAfterSeconds) };
  }
  // Claimed for anyone named (it inserts nothing for a stranger or a member not assigned here), so an unknown member
  // costs what a known one does.
  const claim = await claimTry(db, organizationId, employeeId, device, now);
  if (assigned && claim === null) {
    // Others' guesses took the last tries since the read: this one is not tried.
    const recent = pinLock(
      (await failuresOf(db, organizationId, employeeId, device.locationId, now)).map((f) => f.failedAt),
      now,
    );
    return { ok: false, problem: pinLocked(recent.locked ? recent.retryAfterSeconds : 1) };
  }
  // Not assigned here: derived against no PIN (the same cost), so the answer never depends on the PIN sent.
  const matches = await pinMatches(pin, assigned ? (pins[0] ?? null) : null);
  const eligible = assigned && member?.active === true && member.deletedAt === null;
  if (!(member && matches && eligible)) return { ok: false, problem: pinIncorrect() };
  if (claim !== null) await releaseTry(db, claim);
  return { ok: true, staffMember: { id: member.id, name: member.name, organizationId } };
}
