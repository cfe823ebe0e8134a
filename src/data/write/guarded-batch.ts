import { organizationFreezes, writeGuards } from "@db/schema";
import { type Placeholder, type SQL, sql } from "drizzle-orm";
import type { BatchResponse } from "drizzle-orm/batch";
import { auditStatement } from "@/data/audit/audit-entries";
import type { Database, Statement } from "@/data/client";
import { frozenHere } from "@/data/freezes";
import { newId } from "@/data/ids";
import { type EventSpec, eventStatement } from "@/data/outbox/outbox";
import { noteEndpointsToWake, pendingEndpoints, type WakeUp } from "@/data/outbox/wake";
import { type Placeholders, prepared } from "@/data/prepared";
import type { Actor } from "@/domain/audit";
import type { Principal } from "@/domain/permissions";
import { ProblemError, unauthorized } from "@/problems/problem";
import { type ConstraintProblems, guarded } from "./constraint-problems";
import { guard } from "./guard";
import { preconditionHolds } from "./precondition-guard";

/** A value of a guard, or a prepared guard's placeholder. */
type Bound = string | Placeholder;

/** The organization is live and still the partner's. */
const organizationLive = (p: { organizationId: Bound; partnerId: Bound }) =>
  sql`EXISTS (SELECT 1 FROM organizations
    WHERE id = ${p.organizationId} AND partner_id = ${p.partnerId} AND deleted_at IS NULL)`;

/** That, and the member is live, active, and holds the access role at the permissions version the token names. */
const staffMemberStill = (p: {
  organizationId: Bound;
  partnerId: Bound;
  staffMemberId: Bound;
  accessRoleId: Bound;
  version: number | null | Placeholder;
}) =>
  sql`${organizationLive(p)} AND EXISTS (SELECT 1 FROM staff_members
      WHERE id = ${p.staffMemberId} AND organization_id = ${p.organizationId} AND deleted_at IS NULL AND active = 1
        AND access_role_id = ${p.accessRoleId})
    AND (SELECT permissions_version FROM access_roles WHERE id = ${p.accessRoleId} AND deleted_at IS NULL) IS ${p.version}`;

/**
 * Revocation that costs no read. Reads trust the access token for its hour; every write re-checks, inside its own
 * batch, that what the token was issued against still holds:
 *   an organization token: the organization is live and still the partner's;
 *   a staff member's token: that too, and the member is live, active, still holds the access role the token names,
 *     and that access role's permissionsVersion is the token's (a permission change bumps it).
 * Partner-level tokens are not checked: a partner is configuration (PARTNER_KEYS), not a row, and what they write
 * is scoped by partner id in the write itself.
 */
function stillSo(principal: Principal): SQL {
  const { partnerId, organizationId, staffMemberId, grant, device } = principal;
  if (organizationId === null) return sql`1`;
  // A kiosk's device: still enrolled (not revoked or rotated away meanwhile).
  if (device) {
    return sql`${organizationLive({ organizationId, partnerId })} AND EXISTS (SELECT 1 FROM devices
      WHERE id = ${device.deviceId} AND organization_id = ${organizationId} AND status = 'ACTIVE' AND deleted_at IS NULL)`;
  }
  if (staffMemberId === null) return organizationLive({ organizationId, partnerId });
  // A staff token from before grants were carried cannot be checked: it is refused, and a new exchange fixes that.
  if (!grant) return sql`0`;
  return staffMemberStill({ organizationId, partnerId, staffMemberId, accessRoleId: grant.accessRoleId, version: grant.version });
}

/** Seconds a client waits before retrying a write refused during a move: a move's freeze lasts seconds to minutes. */
export const MOVING_RETRY_AFTER_SECONDS = 30;

export const organizationMoving = () =>
  new ProblemError(
    503,
    "ORGANIZATION_MOVING",
    "The organization is being moved to another database. Nothing was written; retry after the Retry-After seconds.",
    {},
    { "Retry-After": String(MOVING_RETRY_AFTER_SECONDS) },
  );

export const tokenRevoked = () =>
  unauthorized(
    "TOKEN_REVOKED",
    "The access token no longer holds: its organization was deleted, or its staff member was deactivated, deleted or " +
      "given other permissions since it was issued. Nothing was written; exchange a new token.",
  );

/** write_guards.ok: 1 while what the principal's token was issued against still holds (`stillSo`, or its prepared form). */
const principalStillSo = guard({
  column: writeGuards.ok,
  problem: tokenRevoked,
  sql: (stillHolds: SQL) => sql`(SELECT 1 WHERE ${stillHolds})`,
});

/**
 * write_guards.settled: 1 unless an organization written is frozen on this database for a move between shards
 * (src/shards); a batch written for none (a partner-level one) is always settled.
 */
export const organizationSettled = guard({
  column: writeGuards.settled,
  problem: organizationMoving,
  sql: (written: Bound | readonly string[] | null | undefined): SQL => {
    if (!written) return sql`1`;
    if (!Array.isArray(written)) return sql`(SELECT 1 WHERE NOT ${frozenHere(written as Bound)})`;
    return sql`(SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM ${organizationFreezes}
            WHERE ${organizationFreezes.organizationId} IN (SELECT value FROM json_each(${JSON.stringify(written)}))))`;
  },
});

/**
 * The statement that opens every write batch: it inserts NULL into the NOT NULL write_guards.ok when the principal
 * is stale, or into write_guards.settled when the organization written is frozen for a move, failing the batch
 * (SQLite checks NOT NULL before the primary key's ON CONFLICT), else changes nothing.
 */
const guardStatement = (db: Database, stillHolds: SQL, written: Bound | null | undefined) =>
  db
    .insert(writeGuards)
    .values({ id: 1, ok: principalStillSo.sql(stillHolds), settled: organizationSettled.sql(written) })
    .onConflictDoNothing();

// The guards of organization and staff member tokens, built once per isolate (data/prepared).
type Written = { partnerId: string; organizationId: string; written: string };
const organizationGuard = prepared((db, p: Placeholders<Written>) => guardStatement(db, organizationLive(p), p.written));
const staffMemberGuard = prepared(
  (db, p: Placeholders<Written & { staffMemberId: string; accessRoleId: string; version: number | null }>) =>
    guardStatement(db, staffMemberStill(p), p.written),
);

/**
 * The guard of a write by `principal`. The organization written is the principal's, or `organizationId` for a
 * partner-level principal acting on one (`?organizationId=`).
 */
export function principalGuard(db: Database, principal: Principal, organizationId = principal.organizationId) {
  const { partnerId, staffMemberId, grant } = principal;
  if (principal.organizationId !== null && organizationId && !principal.device) {
    const written = { partnerId, organizationId: principal.organizationId, written: organizationId };
    if (staffMemberId === null) return organizationGuard(db, written);
    if (grant) return staffMemberGuard(db, { ...written, staffMemberId, accessRoleId: grant.accessRoleId, version: grant.version });
  }
  return guardStatement(db, stillSo(principal), organizationId);
}

/**
 * The freeze check alone, for a write batch outside a request, which has no principal guard (the accrual pass, over
 * many organizations; webhook delivery's records): put it first in the batch and list `organizationSettled` among
 * its problems. Fails when any of them is frozen.
 */
export const freezeGuard = (db: Database, organizationIds: string | string[]) =>
  db
    .insert(writeGuards)
    .values({ id: 1, ok: 1, settled: organizationSettled.sql(organizationIds) })
    .onConflictDoNothing();

/** Who writes: the request's database and principal (a handler passes `c.var`). */
export interface Writer {
  db: Database;
  principal: Principal;
  /** The organization written when the principal is partner-level (the timesheets' `?organizationId=`). */
  organizationId?: string;
  /**
   * Who the audit log names instead of the principal: a background job acting on a principal's behalf (the pay close
   * run as a job: SYSTEM, domain/audit). The principal's guard still holds the write.
   */
  actor?: Actor;
}

/**
 * The one way to write: the principal guard, then `statements`, then the `events` they make (data/outbox/outbox: the
 * outbox), in one atomic batch (one round trip), with `problems` mapping the statements' own constraint failures
 * (a failed precondition guard answers 412).
 * An event conditional on a change (`whenChanged`, `row`) looks at the batch's last statement: one such per batch.
 * A batch with events ends by reading which webhook endpoints now have events to deliver (data/outbox/wake), for the
 * drain after the request. Answers the statements' results, the guard's, the events' and that read's left out.
 */
export async function guardedBatch<T extends readonly [Statement, ...Statement[]]>(
  { db, principal, organizationId, actor }: Writer,
  statements: T,
  problems: ConstraintProblems = [],
  /**
   * `trailing`: statements that follow the events, so that the events' `changes()` still reads the change itself
   * (writes the change causes, such as the time-off grants of a staff member it includes).
   */
  options: { events?: EventSpec[]; trailing?: Statement[] } = {},
): Promise<BatchResponse<T>> {
  const specs = options.events ?? [];
  const eventIds = specs.map(() => newId());
  const events = specs.map((spec, i) => eventStatement(db, spec, eventIds[i]));
  // The audit log's entries of the events, in the same batch: a write that records an event cannot leave its entry out.
  const audit = specs.length ? [auditStatement(db, actor ?? principal, eventIds)] : [];
  const wake = specs.length ? [pendingEndpoints(db, specs[0]!.organizationId)] : [];
  const guard = principalGuard(db, principal, organizationId ?? principal.organizationId);
  const batch = [guard, ...statements, ...events, ...(options.trailing ?? []), ...audit, ...wake] as unknown as readonly [
    Statement,
    ...Statement[],
  ];
  const [, ...results] = await guarded(db.batch(batch), [principalStillSo, organizationSettled, preconditionHolds, ...problems]);
  if (wake.length) noteEndpointsToWake(db, results.at(-1) as WakeUp[]);
  return results.slice(0, statements.length) as unknown as BatchResponse<T>;
}
