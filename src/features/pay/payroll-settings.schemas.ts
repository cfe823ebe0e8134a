import { z } from "@hono/zod-openapi";
import { EARNING_KEY, PAYROLL_PROVIDERS } from "@/domain/payroll-providers";
import { Timestamp } from "@/platform/schemas/validation";

const Code = z.string().trim().min(1).max(40);

const EarningCodes = z
  .record(z.string().regex(EARNING_KEY, "must be a line kind, KIND:RULE or TIME_OFF:<policy type>"), Code)
  .refine((codes) => Object.keys(codes).length <= 200, "at most 200 earning codes")
  .openapi({
    description:
      "The provider's earning code of each line kind: `REGULAR`, `OVERTIME`, `DOUBLE_TIME`, `MEAL_PENALTY`, " +
      "`PREDICTABILITY`, `REST`, `TIME_OFF`, `HOLIDAY`, `PENALTY`, `MINIMUM_ENGAGEMENT`, `SPREAD_OF_HOURS`, `SPLIT_SHIFT`, `REPORTING_TIME`, `CALL_IN`; a kind and its rule (`OVERTIME:DAILY_OVERTIME`, " +
      "`REST:NYC_FAST_FOOD.REST`) or time off by its policy type (`TIME_OFF:Sick`) take precedence over the kind alone.",
    example: { REGULAR: "hourly", OVERTIME: "overtime", DOUBLE_TIME: "double_overtime", "TIME_OFF:Sick": "sick" },
  });

export const PayrollSettingsPut = z
  .object({
    provider: z.enum(PAYROLL_PROVIDERS).nullable().openapi({
      description: "Where the payroll goes; null: none. Each is a US provider paying in dollars: its file's amounts have 2 decimals.",
    }),
    companyCode: Code.nullable().optional().openapi({ description: "ADP_WFN: the Co Code of the Paydata file.", example: "XYZ" }),
    batchId: Code.nullable().optional().openapi({ description: "ADP_WFN: the Batch ID of the Paydata file.", example: "SHIFTLINE" }),
    earningCodes: EarningCodes.optional().openapi({ description: "Left out: the provider's defaults (`defaultEarningCodes`)." }),
  })
  .openapi("PayrollSettingsPut");

export const PayrollSettings = z
  .object({
    provider: z.enum(PAYROLL_PROVIDERS).nullable(),
    companyCode: z.string().nullable(),
    batchId: z.string().nullable(),
    earningCodes: z.record(z.string(), z.string()),
    defaultEarningCodes: z
      .record(z.string(), z.string())
      .openapi({ description: "The provider's default codes (read-only): only what the provider itself names." }),
    updatedAt: Timestamp.nullable(),
  })
  .openapi("PayrollSettings");
