import { costCodeAssignments, costCodes, staffMembers } from "@db/schema";
import { and, asc, eq, isNull, type SQL, sql } from "drizzle-orm";
import type { Database, Statement } from "@/data/client";
import { organizationNow } from "@/data/clock";
import type { EventSpec } from "@/data/outbox/outbox";
import { rawAll, rawRun } from "@/data/raw-statement";
import { guarded, whenDuplicateOf } from "@/data/write/constraint-problems";
import { guardedBatch, type Writer } from "@/data/write/guarded-batch";
import type { Placement } from "@/domain/cost-codes";
import { findLive } from "@/platform/crud/tenant-queries";
import { nextVersion } from "@/platform/http/conditional";
import { assignedStaffLive, costCodeGuards, costCodeTaken, externalIdTaken, subtreeOf } from "./cost-codes.guards";

/** The live code `id` of the organization, or 404 COST_CODE_NOT_FOUND. */
export const liveCostCode = (db: Database, organizationId: string, id: string) => findLive(db, costCodes, organizationId, id, "Cost code");

/**
 * What placing code `movingId` (absent for a new code) under `parentId` would mean, read for the precise refusal;
 * the write's own guard (costCodeGuards.placed) holds it under concurrency.
 */
export async function placementOf(db: Database, organizationId: string, parentId: string | null, movingId?: string): Promise<Placement> {
  const parentDepth = parentId === null ? 0 : (await liveCostCode(db, organizationId, parentId)).depth;
  if (!movingId) return { parentDepth, subtreeHeight: 1, parentInSubtree: false };
  const [row] = await rawAll<{ height: number; parentInSubtree: number }>(
    db,
    sql`SELECT (SELECT max(depth) FROM cost_codes WHERE id IN (${subtreeOf(movingId)})) - (SELECT depth FROM cost_codes WHERE id = ${movingId}) + 1 AS height,
      ${parentId ?? ""} IN (${subtreeOf(movingId)}) AS parentInSubtree`,
  );
  return { parentDepth, subtreeHeight: row!.height, parentInSubtree: row!.parentInSubtree === 1 };
}

/** The depth column's value for a code placed under `parentId` (1 for a root), guarded. */
export const placedDepth = (organizationId: string, parentId: string | null, movingId?: string): SQL | number =>
  parentId === null ? 1 : costCodeGuards.placed.sql({ organizationId, parentId, movingId });

/**
 * Before a move of `movingId` under `parentId` (null: to the roots), applied only when the move's own update will
 * (`where`): the codes under it shift by as many levels as it does, so the move's guard sees their new depths.
 */
export const shiftDescendants = (db: Database, movingId: string, parentId: string | null, where: SQL): Statement => {
  const newDepth = parentId === null ? sql`1` : sql`(SELECT depth + 1 FROM cost_codes WHERE id = ${parentId})`;
  return db
    .update(costCodes)
    .set({ depth: sql`${costCodes.depth} + ${newDepth} - (SELECT depth FROM cost_codes WHERE id = ${movingId})` })
    .where(
      and(
        sql`${costCodes.id} IN (${subtreeOf(movingId)})`,
        sql`${costCodes.id} <> ${movingId}`,
        sql`EXISTS (SELECT 1 FROM cost_codes WHERE ${where})`,
      ),
    ) as unknown as Statement;
};

/** Refusals of a cost code's writes: its unique indexes (the two sibling indexes, externalId) and its guards. */
const costCodeProblems = [
  whenDuplicateOf([costCodes.organizationId, costCodes.externalId], externalIdTaken),
  whenDuplicateOf([costCodes.organizationId, costCodes.code], costCodeTaken),
  whenDuplicateOf([costCodes.parentId, costCodes.code], costCodeTaken),
  costCodeGuards.placed,
  costCodeGuards.childless,
];

/** Runs a cost code write, its database refusals answered as problems. */
export const refusalsOfCostCode = <T>(write: Promise<T>) => guarded(write, costCodeProblems);

export interface Assignment {
  all: boolean;
  employeeIds: string[];
}

/** The code's assignment: all, or its live staff members in id order. */
export async function assignmentOf(db: Database, code: { id: string; assignAll: boolean }): Promise<Assignment> {
  if (code.assignAll) return { all: true, employeeIds: [] };
  const rows = await db
    .select({ id: costCodeAssignments.employeeId })
    .from(costCodeAssignments)
    .innerJoin(staffMembers, and(eq(staffMembers.id, costCodeAssignments.employeeId), isNull(staffMembers.deletedAt)))
    .where(eq(costCodeAssignments.costCodeId, code.id))
    .orderBy(asc(costCodeAssignments.employeeId));
  return { all: false, employeeIds: rows.map((row) => row.id) };
}

/**
 * Replaces the code's assignment in one batch with its event: assign_all (guarded: the code still live), the rows
 * removed, the new rows inserted from one JSON parameter (any number of ids, one bound list) each guarded to name a
 * live staff member of the organization.
 */
export async function replaceAssignment(writer: Writer, organizationId: string, costCodeId: string, assignment: Assignment) {
  const { db } = writer;
  const now = await organizationNow({ ...writer, organizationId });
  const flag = db
    .update(costCodes)
    .set({
      assignAll: costCodeGuards.live.sql(assignment.all) as unknown as boolean,
      updatedAt: nextVersion(costCodes.updatedAt, now) as unknown as Date,
    })
    .where(and(eq(costCodes.id, costCodeId), eq(costCodes.organizationId, organizationId)));
  const clear = db.delete(costCodeAssignments).where(eq(costCodeAssignments.costCodeId, costCodeId));
  const statements: Statement[] = [flag as unknown as Statement, clear as unknown as Statement];
  if (assignment.employeeIds.length)
    statements.push(
      rawRun(
        db,
        sql`INSERT INTO cost_code_assignments (organization_id, cost_code_id, employee_id, created_at)
          SELECT ${organizationId}, ${costCodeId}, ${assignedStaffLive.sql(organizationId)}, ${now.getTime()}
          FROM json_each(${JSON.stringify(assignment.employeeIds)}) j`,
      ) as unknown as Statement,
    );
  const events: EventSpec[] = [
    { type: "cost_code.assignments_updated", organizationId, occurredAt: now, data: { costCodeId, ...assignment } },
  ];
  await guardedBatch(writer, statements as unknown as [Statement, ...Statement[]], [costCodeGuards.live, assignedStaffLive], { events });
}

/** The organization's cost codes, as the crud helpers (platform/crud) list, read and write them. */
export const costCodeRecords = costCodes;
