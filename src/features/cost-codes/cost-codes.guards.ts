import { costCodeAssignments, costCodes } from "@db/schema";
import { type SQL, sql } from "drizzle-orm";
import { guard } from "@/data/write/guard";
import { MAX_COST_CODE_DEPTH } from "@/domain/cost-codes";
import { conflict, notFound, ProblemError } from "@/problems/problem";

export const costCodeTooDeep = () =>
  new ProblemError(
    422,
    "COST_CODE_TOO_DEEP",
    `A cost code tree has at most ${MAX_COST_CODE_DEPTH} levels: the code, with the codes under it, would go deeper ` +
      "(or its parent was deleted or moved meanwhile). Nothing was written.",
  );

export const costCodeCycle = () =>
  new ProblemError(422, "COST_CODE_CYCLE", "The new parent is the cost code itself or a code under it. Nothing was written.");

export const costCodeHasChildren = () =>
  conflict("COST_CODE_HAS_CHILDREN", "The cost code has live codes under it: delete or move them first. Nothing was written.");

export const costCodeTaken = () => conflict("COST_CODE_TAKEN", "Another live cost code under the same parent has that code.");

export const externalIdTaken = () => conflict("EXTERNAL_ID_TAKEN", "Another cost code of this organization has that externalId.");

/** The live codes of the subtree rooted at `rootId`, itself included (a recursive walk down parent_id). */
export const subtreeOf = (rootId: string): SQL =>
  sql`WITH RECURSIVE subtree(id) AS (SELECT ${rootId} UNION SELECT c.id FROM cost_codes c JOIN subtree ON c.parent_id = subtree.id
    WHERE c.deleted_at IS NULL) SELECT id FROM subtree`;

/**
 * The depth of a code placed under `parentId` (a live code of the organization), or NULL when the parent is gone,
 * is at the deepest level, is in the subtree of `movingId` (a cycle), or the deepest code under `movingId` — whose
 * depths the same batch has already shifted to their new level — would be deeper than allowed.
 */
const depthUnder = ({ organizationId, parentId, movingId }: { organizationId: string; parentId: string; movingId?: string }): SQL =>
  sql`(SELECT p.depth + 1 FROM cost_codes p WHERE p.id = ${parentId} AND p.organization_id = ${organizationId}
    AND p.deleted_at IS NULL AND p.depth < ${MAX_COST_CODE_DEPTH}${
      movingId
        ? sql` AND p.id NOT IN (${subtreeOf(movingId)}) AND NOT EXISTS (SELECT 1 FROM cost_codes d
            WHERE d.id IN (${subtreeOf(movingId)}) AND d.id <> ${movingId} AND d.depth > ${MAX_COST_CODE_DEPTH})`
        : sql``
    })`;

/** Guards of a cost code's row. */
export const costCodeGuards = {
  /** cost_codes.depth: its level under a live parent, within the limit and without a cycle. */
  placed: guard({ column: costCodes.depth, problem: costCodeTooDeep, sql: depthUnder }),
  /** cost_codes.code: kept only while no live code is under it (a delete). */
  childless: guard({
    column: costCodes.code,
    problem: costCodeHasChildren,
    sql: (): SQL =>
      sql`(SELECT "cost_codes"."code" WHERE NOT EXISTS (SELECT 1 FROM cost_codes c
        WHERE c.parent_id = "cost_codes"."id" AND c.deleted_at IS NULL))`,
  }),
  /** cost_codes.assign_all: written only while the code is live (an assignment racing a delete). */
  live: guard({
    column: costCodes.assignAll,
    problem: () => notFound("Cost code"),
    sql: (value: boolean): SQL => sql`(CASE WHEN "cost_codes"."deleted_at" IS NULL THEN ${value ? 1 : 0} END)`,
  }),
};

/** cost_code_assignments.employee_id: the id of a live staff member of the organization, else NULL (404). */
export const assignedStaffLive = guard({
  column: costCodeAssignments.employeeId,
  problem: () => notFound("Staff member"),
  sql: (organizationId: string): SQL =>
    sql`(SELECT s.id FROM staff_members s WHERE s.id = j.value AND s.organization_id = ${organizationId} AND s.deleted_at IS NULL)`,
});
