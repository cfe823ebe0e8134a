import { and, getTableColumns, isNotNull, or, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { z } from "@hono/zod-openapi";
import { staffMembers } from "../../../drizzle/schema";
import { chunk, rowsPerStatement } from "../../lib/chunk";
import type { Principal } from "../../domain/permissions";
import type { Database } from "../../lib/db";
import { newId } from "../../lib/ids";
import { inJsonList, notInJsonList } from "../../lib/json-list";
import { inOrganization, softDeleted } from "../../lib/tenancy";
import { newStaffMemberRow, toColumns } from "./staff-members.columns";
import { defaultAccessRole, resolveReferences } from "./staff-members.references";
import type { StaffMemberRow, StaffMemberSync } from "./staff-members.schemas";

type SyncBody = z.infer<typeof StaffMemberSync>;

/** Every column is bound explicitly, so a row binds exactly this many parameters. */
const ROWS_PER_STATEMENT = rowsPerStatement(Object.keys(getTableColumns(staffMembers)).length);

/** Columns every sync record decides (`active` defaults to true). */
const DECIDED = ["name", "active"] as const;
/** Columns a record may leave out, keeping the stored value of an existing member. */
const OPTIONAL = [
  "email",
  "phoneNumber",
  "externalPayrollId",
  "accessRoleId",
  "hourlyWage",
  "wageType",
  "employmentType",
  "currencyCode",
  "birthDate",
  "locationIds",
  "roleIds",
] as const;
type Content = (typeof DECIDED)[number] | (typeof OPTIONAL)[number];

const excluded = (column: SQLiteColumn) => sql.raw(`excluded."${column.name}"`);

/**
 * The upsert of rows that give the same columns: those columns, plus restoring a deleted member, are taken
 * from the payload, and only when something differs, so an identical record changes nothing (updatedAt included).
 */
function upsert(db: Database, rows: ReturnType<typeof newStaffMemberRow>[], given: readonly Content[]) {
  const set: Record<string, SQL> = {};
  for (const key of [...given, "updatedAt", "deletedAt"] as const) set[key] = excluded(staffMembers[key]);
  return db
    .insert(staffMembers)
    .values(rows)
    .onConflictDoUpdate({
      target: [staffMembers.organizationId, staffMembers.externalId],
      set,
      setWhere: or(isNotNull(staffMembers.deletedAt), ...given.map((key) => sql`${staffMembers[key]} IS NOT ${excluded(staffMembers[key])}`)),
    })
    .returning({ id: staffMembers.id });
}

export async function syncStaffMembers(db: Database, grantor: Principal, organizationId: string, body: SyncBody) {
  const { records, deactivateMissing } = body;
  const references = await resolveReferences(db, grantor, organizationId, records, (index, field) => `records.${index}.${field}`);
  const now = new Date();

  const groups = new Map<string, { given: Content[]; rows: ReturnType<typeof newStaffMemberRow>[] }>();
  records.forEach((record, index) => {
    const accessRoleId = references.accessRoleIds[index];
    const columns = { ...toColumns(record), accessRoleId };
    const given: Content[] = [...DECIDED, ...OPTIONAL.filter((key) => columns[key] !== undefined)];
    const row = newStaffMemberRow(
      organizationId,
      newId(now.getTime()),
      accessRoleId ?? defaultAccessRole(references, `records.${index}.accessRoleId`),
      record,
      now,
    );
    const signature = given.join();
    const group = groups.get(signature) ?? { given, rows: [] };
    group.rows.push(row);
    groups.set(signature, group);
  });
  const proposedIds = new Set([...groups.values()].flatMap((group) => group.rows.map((row) => row.id)));
  const upserts = [...groups.values()].flatMap(({ given, rows }) =>
    chunk(rows, ROWS_PER_STATEMENT).map((part) => upsert(db, part, given)),
  );

  const externalIds = records.map((record) => record.externalId);
  const deactivate = db
    .update(staffMembers)
    .set(softDeleted(now))
    .where(
      and(
        inOrganization(staffMembers, organizationId),
        isNotNull(staffMembers.externalId),
        deactivateMissing ? notInJsonList(staffMembers.externalId, externalIds) : sql`0`,
      ),
    )
    .returning({ id: staffMembers.id });
  const stored = db
    .select()
    .from(staffMembers)
    .where(and(inOrganization(staffMembers, organizationId), inJsonList(staffMembers.externalId, externalIds)));

  // One batch is one transaction; the read-back comes last so it sees every write.
  const [deactivated, ...rest] = await db.batch([deactivate, ...upserts, stored]);
  const storedRows = rest.pop() as StaffMemberRow[];
  const written = (rest as { id: string }[][]).flat();
  const created = written.filter((row) => proposedIds.has(row.id)).length;
  const byExternalId = new Map(storedRows.map((row) => [row.externalId, row]));
  return {
    created,
    updated: written.length - created,
    deactivated: deactivated.length,
    records: externalIds.map((externalId) => byExternalId.get(externalId)!),
  };
}
