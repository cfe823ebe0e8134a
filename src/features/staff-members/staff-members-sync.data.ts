import { staffMembers } from "@db/schema";
import { organizationNow } from "@/data/clock";
import { newId } from "@/data/ids";
import { grantsForStaff, staffWithExternalIds } from "@/data/time-off/grants-now.data";
import { guarded } from "@/data/write/constraint-problems";
import type { Writer } from "@/data/write/guarded-batch";
import { type ContentKey, syncByExternalId } from "@/data/write/sync-by-external-id";
import { accessRolesLive, allManageable, holdingOneOf, staffGuardProblems } from "./staff-members.guards";
import type { StaffMemberSyncInput } from "./staff-members.schemas";
import { newStaffMemberRow, toColumns } from "./staff-members-columns.data";
import { defaultAccessRole, resolveReferences } from "./staff-members-references.data";

/** Columns a record may leave out, keeping the stored value of an existing member (`active` defaults to true). */
const OPTIONAL = [
  "email",
  "phoneNumber",
  "externalPayrollId",
  "payrollIds",
  "accessRoleId",
  "hourlyWage",
  "wageType",
  "employmentType",
  "schoolStudent",
  "currencyCode",
  "birthDate",
  "locationIds",
  "roleIds",
  "workingTimeOptOut",
] as const satisfies readonly ContentKey<typeof staffMembers>[];

/**
 * One atomic batch upserting the records by externalId (the request's sync, or one page of a sync job: `first` is the
 * index of its first record in the payload, so a problem names `records.N` of the payload).
 */
export async function syncStaffMembers(writer: Writer, organizationId: string, body: StaffMemberSyncInput, first = 0) {
  const { db, principal: grantor } = writer;
  const { records, deactivateMissing } = body;
  const now = await organizationNow({ ...writer, organizationId });
  const externalIds = records.map((record) => record.externalId);
  const pathOf = (index: number, field: string) => `records.${first + index}.${field}`;
  const [references, grants] = await Promise.all([
    resolveReferences(db, grantor, organizationId, records, pathOf, { byExternalId: true }),
    grantsForStaff(db, organizationId, staffWithExternalIds(organizationId, externalIds), now),
  ]);
  const entries = records.map((record, index) => {
    const accessRoleId = references.accessRoleIds[index];
    const columns = { ...toColumns(record), accessRoleId };
    const row = newStaffMemberRow(
      organizationId,
      newId(now.getTime()),
      accessRoleId ?? defaultAccessRole(references, pathOf(index, "accessRoleId")),
      record,
      now,
    );
    return {
      row: { ...row, externalId: record.externalId },
      given: ["name" as const, ...OPTIONAL.filter((key) => columns[key] !== undefined)],
    };
  });
  const grantable = references.grantableAccessRoleIds;
  // The checks resolveReferences made on its read, made again by the write: members promoted or access roles
  // deleted meanwhile fail the whole batch, and deactivation leaves alone members the caller may not act on.
  return guarded(
    syncByExternalId(writer, staffMembers, organizationId, {
      entries,
      deactivateMissing,
      now,
      deactivateOnly: holdingOneOf(grantable),
      guardsBefore: [allManageable.sql(db, organizationId, externalIds, grantable)],
      guardsAfter: [accessRolesLive.sql(db, organizationId, externalIds)],
      events: { resource: "staff_member" },
      trailing: grants,
    }),
    staffGuardProblems,
  );
}
