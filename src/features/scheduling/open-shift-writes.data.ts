import { breakTypes, openShifts, roles } from "@db/schema";
import { and, eq, sql } from "drizzle-orm";
import type { Database, Statement } from "@/data/client";
import { organizationNow } from "@/data/clock";
import { newId } from "@/data/ids";
import { rawRun } from "@/data/raw-statement";
import { inOrganization } from "@/data/tenancy";
import { REFERENCE_MISSING, refusedBy } from "@/data/write/constraint-problems";
import { guardedBatch } from "@/data/write/guarded-batch";
import { orGone, preconditionGuard, rowExists } from "@/data/write/precondition-guard";
import { planEntrySpan, unknownBreakIds } from "@/domain/schedule-entry";
import type { OffsetRule } from "@/domain/zoned-wall-clock";
import type { WriteContext } from "@/platform/crud/tenant-queries";
import { ifMatchOf, nextVersionAfter, setETag, versionCondition } from "@/platform/http/conditional";
import { invalidField, notFound, preconditionFailed, validationFailed } from "@/problems/problem";
import { findOpenShift } from "./open-shift-reads.data";
import { type OpenShiftCreateInput, type OpenShiftPatchInput, type OpenShiftRow, serializeOpenShift } from "./open-shifts.schemas";
import { type LocationRow, type ScheduleScope, writerOf } from "./schedule-access.guards";
import { openShiftGuards, scheduleGuardProblems } from "./schedules.guards";

const WALL_CLOCK_PATHS = { start: "startDate", end: "endDate" };

function span(wallClock: { start: string; end: string }, rule: OffsetRule) {
  const plan = planEntrySpan({ start: new Date(wallClock.start), end: new Date(wallClock.end) }, rule, WALL_CLOCK_PATHS);
  if (!plan.ok) throw validationFailed(plan.errors);
  return plan;
}

/**
 * The role an open shift names and its break types, read in one batch: roleId must exist (400); roleName names a
 * live role of the organization or, when none has it, a role created in the write's own batch.
 */
async function resolveReferences(
  db: Database,
  organizationId: string,
  locationId: string,
  body: { roleId?: string; roleName?: string; breaks?: readonly string[] },
  now: Date,
) {
  const [role, named, types] = await db.batch([
    db
      .select({ id: roles.id, name: roles.name })
      .from(roles)
      .where(and(inOrganization(roles, organizationId), eq(roles.id, body.roleId ?? ""))),
    db
      .select({ id: roles.id, name: roles.name })
      .from(roles)
      .where(and(inOrganization(roles, organizationId), eq(roles.name, body.roleName ?? "")))
      .orderBy(roles.id)
      .limit(1),
    db
      .select({ id: breakTypes.id })
      .from(breakTypes)
      .where(and(inOrganization(breakTypes, organizationId), eq(breakTypes.locationId, locationId))),
  ]);
  if (body.breaks) {
    const unknown = unknownBreakIds(
      body.breaks,
      types.map((t) => t.id),
    );
    if (unknown.length > 0) throw invalidField(`breaks.${body.breaks.indexOf(unknown[0]!)}`, "not a break type of this location");
  }
  const statements: Statement[] = [];
  if (body.roleId !== undefined) {
    if (!role[0]) throw invalidField("roleId", "no role with that id in this organization");
    return { role: role[0], statements };
  }
  if (body.roleName === undefined) return { role: null, statements };
  if (named[0]) return { role: named[0], statements };
  const created = { id: newId(now.getTime()), name: body.roleName };
  statements.push(insertNamedRole(db, organizationId, created, now));
  return { role: created, statements };
}

/**
 * A role created by name, unless a live role of the organization has that name by the time the batch runs (another
 * request created it after our read): then nothing is inserted, the open shift's reference to the new id fails the
 * batch on its foreign key, and `onceMoreIfNamedRoleRaced` writes again with the role that won.
 */
const insertNamedRole = (db: Database, organizationId: string, role: { id: string; name: string }, now: Date) =>
  rawRun(
    db,
    sql`INSERT INTO roles (id, organization_id, name, active, created_at, updated_at)
      SELECT ${role.id}, ${organizationId}, ${role.name}, 1, ${now.getTime()}, ${now.getTime()}
      WHERE NOT EXISTS (SELECT 1 FROM roles WHERE organization_id = ${organizationId} AND name = ${role.name} AND deleted_at IS NULL)`,
  );

async function onceMoreIfNamedRoleRaced<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!refusedBy(error, REFERENCE_MISSING)) throw error;
    return write();
  }
}

/** POST /open-shifts (operation 11): a draft unless `publish`, its times read like a manual shift's. */
export const createOpenShift = (db: Database, scope: ScheduleScope, location: LocationRow, body: OpenShiftCreateInput) =>
  onceMoreIfNamedRoleRaced(() => writeNewOpenShift(db, scope, location, body));

async function writeNewOpenShift(
  db: Database,
  scope: ScheduleScope,
  location: LocationRow,
  body: OpenShiftCreateInput,
): Promise<OpenShiftRow> {
  const { organizationId } = scope;
  const timezone = body.timezone ?? location.timezone;
  const planned = span(
    { start: body.startDate, end: body.endDate },
    body.utcOffset !== undefined ? { utcOffset: body.utcOffset } : { timeZone: timezone },
  );
  const now = await organizationNow({ db, ...scope });
  const { role, statements } = await resolveReferences(db, organizationId, location.id, body, now);
  const row: OpenShiftRow = {
    id: newId(now.getTime()),
    organizationId,
    locationId: location.id,
    roleId: role!.id,
    startAt: planned.start,
    endAt: planned.end,
    utcOffset: planned.utcOffset,
    timezone,
    breaks: body.breaks,
    staffCountRequired: body.staffCountRequired,
    requireApproval: body.requireApproval,
    isDraft: !body.publish,
    publishedAt: body.publish ? now : null,
    active: true,
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
  };
  // The answer is known before the write: a new open shift has no preferences yet.
  const created = serializeOpenShift({
    shift: row,
    tenantId: scope.principal.partnerId,
    roleName: role!.name,
    locationExternalId: location.externalId,
    preferences: [],
    approvedPlaces: 0,
  });
  await guardedBatch(
    writerOf(db, scope),
    [...statements, db.insert(openShifts).values(row)] as Statement[] as [Statement, ...Statement[]],
    [],
    {
      events: [{ organizationId, type: "open_shift.created", occurredAt: now, data: created }],
    },
  );
  return row;
}

/** PATCH /open-shifts/{id}: named fields only; fewer places than already approved is 409 OPEN_SHIFT_FULL. */
export const patchOpenShift = (c: WriteContext, scope: ScheduleScope, id: string, body: OpenShiftPatchInput, answer: Answer) =>
  onceMoreIfNamedRoleRaced(() => writeOpenShiftChanges(c, scope, id, body, answer));

/** The open shift as the API answers it (its view), for the event of a write: known before the batch. */
type Answer = (row: OpenShiftRow) => Promise<unknown>;

async function writeOpenShiftChanges(
  c: WriteContext,
  scope: ScheduleScope,
  id: string,
  body: OpenShiftPatchInput,
  answer: Answer,
): Promise<OpenShiftRow> {
  const { db } = c.var;
  const ifMatch = ifMatchOf(c);
  const { organizationId } = scope;
  const was = await findOpenShift(db, scope, id);
  const utcOffset = body.utcOffset ?? was.utcOffset;
  const wall = (instant: Date) => new Date(instant.getTime() + was.utcOffset * 60_000).toISOString();
  const planned = span({ start: body.startDate ?? wall(was.startAt), end: body.endDate ?? wall(was.endAt) }, { utcOffset });
  const now = await organizationNow({ db, ...scope });
  const { role, statements } = await resolveReferences(db, organizationId, was.locationId, body, now);
  const changes = {
    roleId: role?.id ?? was.roleId,
    startAt: planned.start,
    endAt: planned.end,
    utcOffset: planned.utcOffset,
    breaks: body.breaks ?? was.breaks,
    requireApproval: body.requireApproval ?? was.requireApproval,
    staffCountRequired: body.staffCountRequired ?? was.staffCountRequired,
    updatedAt: nextVersionAfter(was, now),
  };
  const unchanged = and(inOrganization(openShifts, organizationId), eq(openShifts.id, id), versionCondition(openShifts.updatedAt, ifMatch));
  const update = db
    .update(openShifts)
    .set({ ...changes, staffCountRequired: openShiftGuards.placesCoverApproved.sql(id, changes.staffCountRequired) })
    .where(unchanged);
  const row = { ...was, ...changes };
  const data = await answer(row);
  // The guard keeps a role created by name from being written when the open shift changed or went meanwhile.
  await orGone(
    guardedBatch(c.var, [preconditionGuard(db, rowExists(openShifts, unchanged)), ...statements, update], scheduleGuardProblems, {
      events: [{ organizationId, type: "open_shift.updated", occurredAt: now, data, whenChanged: true }],
    }),
    () => findOpenShift(db, scope, id),
  );
  setETag(c, row);
  return row;
}

/** DELETE /open-shifts/{id}: a soft delete; entries its claims created stay on the schedule. */
export async function removeOpenShift(c: WriteContext, scope: ScheduleScope, id: string, answer: Answer): Promise<OpenShiftRow> {
  const now = await organizationNow({ db: c.var.db, ...scope });
  const was = await findOpenShift(c.var.db, scope, id);
  const gone = { ...was, active: false, deletedAt: now, updatedAt: nextVersionAfter(was, now) };
  const data = await answer(gone);
  const where = and(
    inOrganization(openShifts, scope.organizationId),
    eq(openShifts.id, id),
    eq(openShifts.locationId, scope.locationId),
    versionCondition(openShifts.updatedAt, ifMatchOf(c)),
  );
  const [[row]] = await guardedBatch(
    c.var,
    [c.var.db.update(openShifts).set({ active: false, deletedAt: now, updatedAt: gone.updatedAt }).where(where).returning()],
    [],
    {
      events: [{ organizationId: scope.organizationId, type: "open_shift.deleted", occurredAt: now, data, whenChanged: true }],
    },
  );
  if (!row) {
    if (ifMatchOf(c).kind === "versions") throw preconditionFailed();
    throw notFound("Open shift");
  }
  setETag(c, row);
  return row;
}
