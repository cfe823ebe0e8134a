import type { staffMembers } from "@db/schema";
import type { StaffMemberInput } from "./staff-members.schemas";

export type StaffMemberColumns = Partial<Omit<typeof staffMembers.$inferInsert, "id" | "organizationId" | "accessRoleId">>;

/** Columns a create, patch or sync record sets; keys it leaves out stay absent (a patch leaves them alone). */
export function toColumns(input: StaffMemberInput): StaffMemberColumns {
  const { accessRoleId: _id, accessRoleName: _name, birthDate, locationIds, roleIds, ...plain } = input;
  const columns: StaffMemberColumns = { ...plain };
  if (birthDate !== undefined) columns.birthDate = birthDate === null ? null : new Date(birthDate);
  if (locationIds !== undefined) columns.locationIds = [...new Set(locationIds)];
  if (roleIds !== undefined) columns.roleIds = [...new Set(roleIds)];
  return columns;
}

/** A full row for an insert: what the input leaves out gets its default. */
export function newStaffMemberRow(
  organizationId: string,
  id: string,
  accessRoleId: string,
  input: StaffMemberInput & { name: string },
  now: Date,
) {
  return {
    email: null,
    phoneNumber: null,
    externalId: null,
    externalPayrollId: null,
    payrollIds: {},
    hourlyWage: null,
    wageType: null,
    employmentType: null,
    schoolStudent: false,
    currencyCode: null,
    birthDate: null,
    locationIds: [],
    roleIds: [],
    workingTimeOptOut: null,
    active: true,
    ...toColumns(input),
    name: input.name,
    id,
    organizationId,
    accessRoleId,
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
  } satisfies typeof staffMembers.$inferInsert;
}
