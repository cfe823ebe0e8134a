import { z } from "@hono/zod-openapi";
import { PageQuery } from "@/platform/schemas/list-query";

export const QualifiedOvertimeQuery = z.object({
  year: z
    .string()
    .regex(/^(19|20)[0-9]{2}$/, "must be a year, YYYY")
    .openapi({ param: { name: "year", in: "query" }, description: "The tax year (YYYY).", example: "2026" }),
  ...PageQuery.shape,
});

export const QualifiedOvertimeEmployee = z
  .object({
    employeeId: z.string(),
    qualifiedOvertimePremium: z.number().openapi({
      description: "Σ of the periods' amounts, to the cent: the qualified overtime compensation Form W-2 reports.",
      example: 110,
    }),
    qualifiedOvertimeHours: z
      .number()
      .openapi({ description: "The hours over 40 in FLSA workweeks it was paid on, to two decimals.", example: 10 }),
    periods: z.array(
      z
        .object({
          periodId: z.string(),
          amount: z.number().openapi({ description: "The staff member's qualifiedOvertimePremium in that period's latest payroll." }),
        })
        .openapi("QualifiedOvertimePeriod"),
    ),
  })
  .openapi("QualifiedOvertimeEmployee");

export const QualifiedOvertimeReport = z.array(QualifiedOvertimeEmployee).openapi("QualifiedOvertimeReport");
