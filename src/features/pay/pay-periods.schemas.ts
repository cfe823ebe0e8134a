import { z } from "@hono/zod-openapi";
import { PAY_FREQUENCIES } from "@/domain/pay-periods";
import { idParam, OrganizationParams } from "@/platform/openapi/helpers";
import { CalendarDate, Timestamp, TimestampOrNull } from "@/platform/schemas/validation";
import { PayRuleSet } from "@/wire/pay-rule-set.schemas";
import { employeePayShape, PayrollAdjustment, PayTotals } from "./pay-lines.schemas";

export const PayPeriodSettings = z
  .object({
    frequency: z.enum(PAY_FREQUENCIES),
    anchorDate: z.string().openapi({ format: "date", example: "2026-01-05", description: "The first day of one period." }),
    updatedAt: Timestamp,
  })
  .openapi("PayPeriodSettings");

export const PayPeriodSettingsPatch = z
  .object({ frequency: z.enum(PAY_FREQUENCIES).optional(), anchorDate: CalendarDate.optional() })
  .openapi("PayPeriodSettingsPatch");

const payPeriodShape = {
  id: z.string().openapi({ description: "The period's startDate.", example: "2026-03-02" }),
  startDate: z.string().openapi({ format: "date" }),
  endDate: z.string().openapi({ format: "date" }),
  status: z.enum(["OPEN", "CLOSED"]),
  version: z.number().int().openapi({ description: "How many times it was closed (0: never)." }),
  approvedCount: z.number().int(),
  employeeCount: z.number().int().openapi({ description: "Staff members with shifts in the period, or an approved timesheet." }),
  closedAt: TimestampOrNull,
  closedBy: z.string().nullable(),
  snapshotHash: z.string().nullable().openapi({ description: "SHA-256 (hex) of the latest close's payroll snapshot." }),
  reopenedAt: TimestampOrNull,
  reopenReason: z.string().nullable(),
};

export const PayPeriod = z.object(payPeriodShape).openapi("PayPeriod");

export const PayPeriodDetail = z
  .object({
    ...payPeriodShape,
    employees: z.array(
      z.object({
        employeeId: z.string(),
        approved: z.boolean(),
        approvedAt: TimestampOrNull,
        approvedBy: z.string().nullable(),
      }),
    ),
  })
  .openapi("PayPeriodDetail");

export const PayPeriodRangeQuery = z.object({
  startDate: CalendarDate.openapi({ param: { name: "startDate", in: "query" } }),
  endDate: CalendarDate.openapi({ param: { name: "endDate", in: "query" } }),
});

export const PayPeriodParams = OrganizationParams.extend({
  periodId: CalendarDate.openapi({
    param: { name: "periodId", in: "path" },
    description: "The period's startDate.",
    example: "2026-03-02",
  }),
});

export const ApprovalParams = PayPeriodParams.extend({ employeeId: idParam("employeeId", "Staff member id") });

export const ApprovalBody = z
  .object({ employeeIds: z.array(z.string().min(1).max(64)).min(1).max(500) })
  .openapi("TimesheetApprovalRequest");

export const CloseBody = z
  .object({
    approveAll: z.boolean().default(false).openapi({ description: "Approve every timesheet not yet approved, in the close's own batch." }),
  })
  .openapi("PayPeriodCloseRequest");

export const ReopenBody = z.object({ reason: z.string().trim().min(1).max(1000) }).openapi("PayPeriodReopenRequest");

export const PayrollQuery = z.object({
  format: z
    .enum(["json", "csv", "adp-wfn", "gusto", "check", "paychex"])
    .default("json")
    .openapi({ param: { name: "format", in: "query" } }),
});

export const Payroll = z
  .object({
    periodId: z.string(),
    startDate: z.string(),
    endDate: z.string(),
    version: z.number().int(),
    snapshotHash: z.string().openapi({ description: "SHA-256 (hex) of the canonical JSON of this document without snapshotHash." }),
    closedAt: Timestamp,
    closedBy: z.string(),
    employees: z.array(z.object({ ...employeePayShape, name: z.string() }).openapi("PayrollEmployee")),
    totals: PayTotals,
    adjustments: z.array(PayrollAdjustment),
    ruleSets: z.array(PayRuleSet).openapi({
      description: "The rule set versions the close used (in force on a workday of a workweek it computed), as they were then.",
    }),
  })
  .openapi("Payroll");

export const TimesheetApproval = z
  .object({
    periodId: z.string(),
    startDate: z.string(),
    endDate: z.string(),
    employeeId: z.string(),
    approved: z.boolean(),
    approvedAt: TimestampOrNull,
    approvedBy: z.string().nullable(),
  })
  .openapi("TimesheetApproval", { description: "An employee's timesheet approval for a pay period (the data of timesheet.* events)." });
