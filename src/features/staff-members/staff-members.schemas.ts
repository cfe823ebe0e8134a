import type { staffMembers } from "@db/schema";
import { z } from "@hono/zod-openapi";
import { idParam, OrganizationParams } from "@/platform/openapi/helpers";
import { ListQuery, queryBoolean } from "@/platform/schemas/list-query";
import { iso, isoOrNull } from "@/platform/schemas/time";
import {
  CalendarDate,
  CurrencyCode,
  Email,
  ExternalId,
  Instant,
  Name,
  orNull,
  PhoneNumber,
  recordLifecycle,
  Timestamp,
  TimestampOrNull,
} from "@/platform/schemas/validation";

export const EMPLOYMENT_TYPES = ["full_time", "part_time", "casual", "contractor", "seasonal"] as const;
export const WAGE_TYPES = ["hourly", "salary"] as const;
/** A sync of at most this many records is one atomic write within the request (STAFF_SYNC_IN_REQUEST_MAX lowers it). */
export const MAX_SYNC_RECORDS = 1000;
/** A larger sync, up to this many records, runs as a BULK job in pages (staff-sync-job.data.ts). */
export const MAX_SYNC_JOB_RECORDS = 50_000;
const MAX_ASSIGNMENTS = 200;

const EXAMPLE_ID = "0193a5a0-7c1e-7b2a-9d4e-1f2a3b4c5d6e";

const ProviderId = z.string().trim().min(1).max(64);

export const PayrollIds = z
  .object({
    ADP_WFN: ProviderId.optional().openapi({ description: "ADP Workforce Now file number (File #)", example: "000123" }),
    GUSTO: ProviderId.optional().openapi({ description: "Gusto employee UUID", example: "7757500b-3e2a-4e5c-9b5a-1c4b3b2b1a00" }),
    CHECK: ProviderId.optional().openapi({ description: "Check employee id", example: "emp_FMssH75VFfjomWcNCEvL" }),
    PAYCHEX: ProviderId.optional().openapi({ description: "Paychex Flex worker id", example: "00H2A1IUJ3HJ4X5W6Y7Z" }),
  })
  .strict()
  .openapi("StaffMemberPayrollIds", {
    description: "The staff member's id at each payroll provider: what GET …/payroll?format= keys their rows by.",
  });

const WorkingTimeOptOut = z
  .object({
    signedOn: CalendarDate.openapi({ description: "The date the worker signed the opt-out." }),
    withdrawnOn: CalendarDate.nullable()
      .default(null)
      .openapi({ description: "The date it was withdrawn (no longer in force from it); null: in force." }),
  })
  .strict()
  .refine((o) => o.withdrawnOn === null || o.withdrawnOn >= o.signedOn, { message: "must not be before signedOn", path: ["withdrawnOn"] })
  .openapi("WorkingTimeOptOut", {
    description:
      "The worker's written agreement to work more than the 48-hour weekly average (UK Working Time Regulations 1998 reg. 5): " +
      "while in force, the working-time report does not hold them to the average under a pack that allows opting out.",
  });

/** A current wage of the staff member below their award's minimum (domain/staff-wage-warnings.ts). */
export const StaffWageWarning = z
  .object({
    code: z.enum(["WAGE_BELOW_AWARD_MINIMUM"]),
    locationId: z.string().openapi({ description: "The location whose rule set's preset sets the minimum." }),
    wageRateId: z
      .string()
      .nullable()
      .openapi({ description: "The wage rate in force below the minimum; null: the staff member's own hourlyWage." }),
    wage: z.number().openapi({
      description: "The hourly wage compared: for a casual with the 25 % casual loading pay adds (to the cent).",
      example: 25,
    }),
    minimum: z.number().openapi({ description: "The award's minimum hourly rate today (a casual's: with the loading).", example: 26.55 }),
    source: z.string().openapi({ description: "The award, clause and pay guide the minimum comes from." }),
  })
  .openapi("StaffWageWarning", {
    description:
      "WAGE_BELOW_AWARD_MINIMUM: a current wage of the staff member — their hourlyWage at each location they are assigned " +
      "to, and each wage rate in force today (the newest of each role-and-location scope) at its location, or at each " +
      "assigned location when it names none — below the minimum of the preset of the rule set governing that location " +
      "today: AU_GENERAL_RETAIL, an adult Retail Employee Level 1's $26.55 an hour from 1 July 2025 (cl. 17.1), a " +
      "casual's $33.19 with the 25 % loading (cl. 11.2). The same comparison as pay's PayWarning; nothing is raised.",
  });

export const StaffMember = z
  .object({
    id: z.string().openapi({ example: EXAMPLE_ID }),
    name: z.string().openapi({ example: "Ada Lovelace" }),
    email: z.string().nullable().openapi({ example: "ada@example.com" }),
    phoneNumber: z.string().nullable().openapi({ example: "+15550100199" }),
    organizationId: z.string().openapi({ example: EXAMPLE_ID }),
    externalId: z.string().nullable().openapi({ example: "emp-1001" }),
    externalPayrollId: z.string().nullable().openapi({ example: "payroll-77" }),
    payrollIds: PayrollIds,
    accessRoleId: z.string().openapi({ example: EXAMPLE_ID, description: "References an access role" }),
    active: recordLifecycle.active,
    hourlyWage: z.number().nullable().openapi({ example: 18.5 }),
    wageType: z.enum(WAGE_TYPES).nullable().openapi({ example: "hourly" }),
    employmentType: z
      .enum(EMPLOYMENT_TYPES)
      .nullable()
      .openapi({
        example: "part_time",
        description:
          "casual: paid the award's casual loading and rates under AU_GENERAL_RETAIL (a part-time or casual employee is " +
          "paid its minimum engagement; full_time has none).",
      }),
    schoolStudent: z.boolean().openapi({
      example: false,
      description:
        "A secondary school student: the retail award's minimum engagement is 1.5 h between 15:00 and 18:30 on a school day (cl. 11.3).",
    }),
    currencyCode: z.string().nullable().openapi({ example: "USD" }),
    birthDate: TimestampOrNull.openapi({ example: "1990-05-01T00:00:00.000Z" }),
    locationIds: z.array(z.string()).openapi({ description: "Locations the member works at", example: [EXAMPLE_ID] }),
    roleIds: z.array(z.string()).openapi({ description: "Roles the member may work", example: [EXAMPLE_ID] }),
    workingTimeOptOut: orNull(WorkingTimeOptOut),
    warnings: z
      .array(StaffWageWarning)
      .optional()
      .openapi({
        description:
          "On reads (GET one, by externalId, the lists) and only when a current wage is below the award's minimum for " +
          "the staff member's employment at a location (StaffWageWarning): one warning per wage and location. Judged " +
          "today by the organization's clock (its UTC date). Absent from writes' answers and events: read the member.",
      }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    deletedAt: TimestampOrNull,
  })
  .openapi("StaffMember");

const IdList = (what: string) =>
  z
    .array(z.string().min(1).max(64))
    .max(MAX_ASSIGNMENTS)
    .openapi({ description: `Ids of live ${what} of this organization; duplicates are dropped.`, example: [EXAMPLE_ID] });

const BirthDate = z
  .union([CalendarDate, Instant], { error: "must be an ISO date (YYYY-MM-DD) or date-time, from 1970 to 2200" })
  .refine((value) => new Date(value).getTime() <= Date.now(), "must not be in the future")
  .openapi({ description: "ISO date (`YYYY-MM-DD`) or date-time; answered as a timestamp", example: "1990-05-01" });

/** Writable fields; optional ones take null to clear them. */
const writable = {
  name: Name.openapi({ example: "Ada Lovelace" }),
  email: Email.nullable(),
  phoneNumber: PhoneNumber.nullable(),
  externalId: ExternalId.nullable().openapi({ example: "emp-1001", description: "Unique per organization" }),
  externalPayrollId: ExternalId.nullable().openapi({ example: "payroll-77" }),
  payrollIds: PayrollIds,
  accessRoleId: z.string().min(1).max(64).openapi({ example: EXAMPLE_ID, description: "Give this or accessRoleName" }),
  accessRoleName: Name.openapi({ example: "Manager", description: "Name of an access role; give this or accessRoleId" }),
  hourlyWage: z.number().min(0).max(1_000_000).nullable().openapi({ example: 18.5 }),
  wageType: z.enum(WAGE_TYPES).nullable(),
  employmentType: z.enum(EMPLOYMENT_TYPES).nullable(),
  schoolStudent: z.boolean().openapi({ example: false }),
  currencyCode: CurrencyCode.nullable(),
  birthDate: BirthDate.nullable(),
  locationIds: IdList("locations"),
  roleIds: IdList("roles"),
  workingTimeOptOut: orNull(WorkingTimeOptOut),
  active: z.boolean().openapi({ example: true }),
};

const oneAccessRole = {
  check: (body: { accessRoleId?: string; accessRoleName?: string }) => body.accessRoleId === undefined || body.accessRoleName === undefined,
  options: { path: ["accessRoleName"], message: "give accessRoleId or accessRoleName, not both" },
};

const optionalWritable = z.object(writable).partial();

export const StaffMemberCreate = optionalWritable
  .extend({ name: writable.name })
  .refine(oneAccessRole.check, oneAccessRole.options)
  .openapi("StaffMemberCreate", {
    description: "Without accessRoleId or accessRoleName the member gets the organization's `Employee` access role.",
  });

export const StaffMemberPatch = optionalWritable.refine(oneAccessRole.check, oneAccessRole.options).openapi("StaffMemberPatch");

export const StaffMemberSyncRecord = optionalWritable
  .extend({ name: writable.name, externalId: ExternalId.openapi({ example: "emp-1001" }) })
  .refine(oneAccessRole.check, oneAccessRole.options)
  .openapi("StaffMemberSyncRecord");

export const StaffMemberSync = z
  .object({
    records: z.array(StaffMemberSyncRecord).min(1).max(MAX_SYNC_JOB_RECORDS),
    deactivateMissing: z.boolean().default(false).openapi({
      description: "Soft-delete live staff members with an externalId that no record names.",
    }),
  })
  .superRefine((body, ctx) => {
    const seen = new Map<string, number>();
    body.records.forEach((record, index) => {
      const first = seen.get(record.externalId);
      if (first === undefined) seen.set(record.externalId, index);
      else ctx.addIssue({ code: "custom", path: ["records", index, "externalId"], message: `duplicates records.${first}.externalId` });
    });
  })
  .openapi("StaffMemberSync");
export type StaffMemberSyncInput = z.infer<typeof StaffMemberSync>;

export const StaffMemberSyncResult = z
  .object({
    created: z.number().int().openapi({ example: 2 }),
    updated: z.number().int().openapi({ example: 1 }),
    deactivated: z.number().int().openapi({ example: 0 }),
    records: z.array(StaffMember),
  })
  .openapi("StaffMemberSyncResult");

export const StaffMemberListQuery = ListQuery.extend({
  locationId: z.string().min(1).max(64).optional().openapi({ description: "Only members assigned to this location." }),
  roleId: z.string().min(1).max(64).optional().openapi({ description: "Only members who may work this role." }),
  email: z.string().min(1).max(320).optional().openapi({ description: "Exact email, case-insensitive." }),
  active: queryBoolean("Only active (`true`) or inactive (`false`) members."),
});

export const StaffMemberParams = OrganizationParams.extend({ id: idParam("id", "Staff member id") });

export const LocationRecordParams = OrganizationParams.extend({ id: idParam("id", "Location id") });

export const StaffMemberExternalIdParams = OrganizationParams.extend({
  externalId: ExternalId.openapi({ param: { name: "externalId", in: "path" }, description: "The partner's id" }),
});

export type StaffMemberRow = typeof staffMembers.$inferSelect;
export type StaffMemberInput = z.infer<typeof StaffMemberPatch>;

/** The staff member as answered; with `warnings` when a read judged any (StaffWageWarning). */
export const serializeStaffMember = (
  row: StaffMemberRow,
  warnings?: readonly z.infer<typeof StaffWageWarning>[],
): z.infer<typeof StaffMember> => ({
  id: row.id,
  name: row.name,
  email: row.email,
  phoneNumber: row.phoneNumber,
  organizationId: row.organizationId,
  externalId: row.externalId,
  externalPayrollId: row.externalPayrollId,
  payrollIds: row.payrollIds ?? {},
  accessRoleId: row.accessRoleId,
  active: row.active,
  hourlyWage: row.hourlyWage,
  wageType: row.wageType as z.infer<typeof StaffMember>["wageType"],
  employmentType: row.employmentType as z.infer<typeof StaffMember>["employmentType"],
  schoolStudent: row.schoolStudent,
  currencyCode: row.currencyCode,
  birthDate: isoOrNull(row.birthDate),
  locationIds: row.locationIds,
  roleIds: row.roleIds,
  workingTimeOptOut: row.workingTimeOptOut ?? null,
  ...(warnings?.length && { warnings: [...warnings] }),
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
  deletedAt: isoOrNull(row.deletedAt),
});
