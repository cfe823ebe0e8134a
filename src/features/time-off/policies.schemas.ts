import type { policyTypes, timeOffPolicies } from "@db/schema";
import { z } from "@hono/zod-openapi";
import { POLICY_TYPE_KINDS } from "@/domain/organization-defaults";
import { idParam, OrganizationParams } from "@/platform/openapi/helpers";
import { ListQuery } from "@/platform/schemas/list-query";
import { iso, isoOrNull } from "@/platform/schemas/time";
import { ExternalId, Name, recordLifecycle } from "@/platform/schemas/validation";

const EXAMPLE_ID = "0193a5a0-7c1e-7b2a-9d4e-1f2a3b4c5d6e";
const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"] as const;
export const POLICY_STATUSES = ["Draft", "Active", "Inactive"] as const;
const Amount = z.number().min(0).max(100_000);

export const PolicyType = z
  .object({
    id: z.string().openapi({ example: EXAMPLE_ID }),
    name: z.string().openapi({ example: "Vacation" }),
    type: z.enum(POLICY_TYPE_KINDS).openapi({ example: "Vacation" }),
  })
  .openapi("PolicyType");

export const PolicyTypeCreate = z
  .object({ name: Name.openapi({ example: "Jury duty" }), type: z.enum(POLICY_TYPE_KINDS).openapi({ example: "Other" }) })
  .openapi("PolicyTypeCreate");

export const AssignedStaff = z
  .object({
    type: z.enum(["All", "Role", "Location", "EmploymentType"]).openapi({ example: "Role" }),
    value: z.string().min(1).max(64).optional().openapi({ example: EXAMPLE_ID, description: "Role id, location id or employment type" }),
  })
  .refine((a) => a.type === "All" || a.value !== undefined, { message: "value is required unless type is All", path: ["value"] })
  .openapi("AssignedStaff");

export const DefaultSettings = z.object({ assignedStaff: AssignedStaff.optional() }).openapi("PolicyDefaultSettings");

export const LimitSettings = z
  .object({
    isFixedAmount: z.boolean().optional().openapi({ example: true }),
    fixedAmount: z
      .object({
        hours: Amount.optional().openapi({ example: 8 }),
        daysEarned: Amount.optional().openapi({ example: 1 }),
        accrualCycle: z.enum(["AllAtOnce", "Periodic"]).optional().openapi({ example: "Periodic" }),
        accrualFrequency: z
          .enum(["EveryOneWeek", "EveryTwoWeeks", "EveryMonth", "EveryYear"])
          .optional()
          .openapi({ example: "EveryMonth" }),
        accrualDay: z.enum(WEEKDAYS).optional().openapi({ example: "Sunday", description: "Weekly and two-weekly accrual" }),
        accrualDate: z
          .string()
          .regex(/^([1-9]|[12][0-9]|3[01])(st|nd|rd|th)$|^last$/, "must be like 1st, 15th or last")
          .optional()
          .openapi({ example: "1st", description: "Monthly accrual: a day of the month (clamped to its end) or `last`" }),
      })
      .optional(),
    perHourEarnings: z
      .object({
        hoursEarned: z.number().positive().max(1000).optional().openapi({ example: 1 }),
        hoursWorked: z.number().positive().max(10_000).optional().openapi({ example: 30 }),
        isLimitedMaximumBalance: z.boolean().optional().openapi({ example: true }),
        maximumHoursBalance: Amount.optional().openapi({ example: 40 }),
      })
      .optional(),
  })
  .openapi("PolicyLimitSettings", {
    description:
      "Fixed amounts accrue from the Cron pass (AllAtOnce on inclusion and each 1 January; Periodic each period); " +
      "perHourEarnings accrue from closed shifts' payable time. Dates are the organization's local dates.",
  });

export const Policy = z
  .object({
    id: z.string().openapi({ example: EXAMPLE_ID }),
    name: z.string().openapi({ example: "Vacation (US)" }),
    organizationId: z.string(),
    locationId: z.string().nullable(),
    typeId: z.string(),
    type: PolicyType,
    paid: z.boolean(),
    units: z.enum(["hours", "days"]),
    requiresApproval: z.boolean(),
    carryoverLimit: z.number().nullable().openapi({ description: "In the policy's units; null: nothing expires" }),
    allowNegativeBalance: z.boolean(),
    fullDayDuration: z.number().openapi({ example: 8, description: "Hours in a full day off" }),
    assignedStaffCount: z.number().int(),
    status: z.enum(POLICY_STATUSES),
    defaultSettings: DefaultSettings,
    limitSettings: LimitSettings,
    ...recordLifecycle,
  })
  .openapi("Policy");

const policyFields = {
  name: Name.openapi({ example: "Vacation (US)" }),
  locationId: z.string().min(1).max(64).nullable().openapi({ example: EXAMPLE_ID }),
  typeId: z.string().min(1).max(64).openapi({ example: EXAMPLE_ID }),
  paid: z.boolean(),
  units: z.enum(["hours", "days"]),
  requiresApproval: z.boolean(),
  carryoverLimit: Amount.nullable(),
  allowNegativeBalance: z.boolean(),
  fullDayDuration: z.number().positive().max(24),
  defaultSettings: DefaultSettings,
  limitSettings: LimitSettings,
};

export const PolicyCreate = z.object(policyFields).partial().required({ name: true, typeId: true }).openapi("PolicyCreate", {
  description: "fullDayDuration defaults to the time-off settings' fullDayHours; `paid` to false for a type Unpaid, else true.",
});

export const WorkerPolicyAssignment = z
  .object({
    employee: z.object({
      externalEmployeeId: ExternalId,
      name: z.string().max(200).optional(),
      payrollId: z.string().max(255).optional(),
    }),
    hoursBalance: z.number().min(-100_000).max(100_000).optional().openapi({
      description: "In the policy's units: writes one adjustment entry of the difference from the current balance",
    }),
    isIncluded: z.boolean().optional(),
  })
  .openapi("WorkerPolicyAssignment");

export const PolicyPatch = z
  .object({ ...policyFields, workerPolicies: z.array(WorkerPolicyAssignment).max(1000) })
  .partial()
  .superRefine((patch, ctx) => {
    const seen = new Set<string>();
    const duplicates = new Set<string>();
    for (const w of patch.workerPolicies ?? []) {
      const id = w.employee.externalEmployeeId;
      (seen.has(id) ? duplicates : seen).add(id);
    }
    if (duplicates.size > 0) {
      ctx.addIssue({
        code: "custom",
        path: ["workerPolicies"],
        message: `externalEmployeeId given more than once: ${[...duplicates].join(", ")}`,
      });
    }
  })
  .openapi("PolicyPatch");

export const PolicyListQuery = ListQuery.extend({
  status: z.enum(POLICY_STATUSES).optional(),
  typeId: z.string().min(1).max(64).optional(),
  locationId: z.string().min(1).max(64).optional(),
});

export const PolicyParams = OrganizationParams.extend({ policy_id: idParam("policy_id", "Policy id") });

export const WorkerPolicy = z
  .object({
    id: z.string(),
    policyId: z.string(),
    workerId: z.string(),
    name: z.string().openapi({ description: "The policy's name" }),
    hoursBalance: z.number().openapi({ description: "Σ ledger entries, in the policy's units" }),
    availableBalance: z.number().openapi({ description: "hoursBalance − pending requests, in the policy's units" }),
    isIncluded: z.boolean(),
    employee: z.object({
      id: z.string(),
      externalEmployeeId: z.string().nullable(),
      name: z.string(),
      payrollId: z.string().nullable(),
    }),
    updatedAt: z.string(),
  })
  .openapi("WorkerPolicy");

export const WorkerPolicyListQuery = ListQuery.omit({ includeDeleted: true }).extend({
  workerId: z.string().min(1).max(64).optional(),
});

export const PolicyWorkerListQuery = ListQuery.omit({ includeDeleted: true });

export const LedgerEntry = z
  .object({
    id: z.string(),
    workerPolicyId: z.string(),
    kind: z.enum(["accrual", "usage", "adjustment", "carryover", "reversal"]),
    hours: z.number().openapi({ description: "Signed; the ledger always keeps hours" }),
    effectiveDate: z.string().openapi({ example: "2026-03-01" }),
    source: z.object({ type: z.string(), id: z.string() }),
    createdAt: z.string(),
  })
  .openapi("LedgerEntry");

export const LedgerParams = PolicyParams.extend({ workerId: idParam("workerId", "Staff member id") });

type PolicyRow = typeof timeOffPolicies.$inferSelect;

export const serializePolicy = (
  row: PolicyRow,
  type: { id: string; name: string; type: string },
  assignedStaffCount: number,
): z.infer<typeof Policy> => ({
  id: row.id,
  name: row.name,
  organizationId: row.organizationId,
  locationId: row.locationId,
  typeId: row.typeId,
  type: type as z.infer<typeof PolicyType>,
  paid: row.paid,
  units: row.units,
  requiresApproval: row.requiresApproval,
  carryoverLimit: row.carryoverLimit,
  allowNegativeBalance: row.allowNegativeBalance,
  fullDayDuration: row.fullDayDuration,
  assignedStaffCount,
  status: row.status,
  defaultSettings: row.defaultSettings as z.infer<typeof DefaultSettings>,
  limitSettings: row.limitSettings as z.infer<typeof LimitSettings>,
  active: row.active,
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
  deletedAt: isoOrNull(row.deletedAt),
});

export const serializePolicyType = (row: typeof policyTypes.$inferSelect) => ({ id: row.id, name: row.name, type: row.type as "Other" });
