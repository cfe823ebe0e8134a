import type { wageRates } from "@db/schema";
import { z } from "@hono/zod-openapi";
import { idParam, OrganizationParams, queryIdParam } from "@/platform/openapi/helpers";
import { ListQuery } from "@/platform/schemas/list-query";
import { iso, isoOrNull } from "@/platform/schemas/time";
import { CalendarDate, recordLifecycle } from "@/platform/schemas/validation";

const HourlyRate = z.number().min(0).max(1_000_000).openapi({ description: "Hourly rate in the organization's currency.", example: 21.5 });
const Id = z.string().min(1).max(64);

export const WageRate = z
  .object({
    id: z.string().openapi({ example: "0193a5a0-7c1e-7b2a-9d4e-1f2a3b4c5d6e" }),
    employeeId: z.string(),
    roleId: z.string().nullable().openapi({ description: "Only shifts in this role; null: any role." }),
    locationId: z.string().nullable().openapi({ description: "Only shifts at this location; null: any location." }),
    hourlyRate: HourlyRate,
    effectiveFrom: z.string().openapi({ format: "date", example: "2026-04-01" }),
    ...recordLifecycle,
  })
  .openapi("WageRate");

export const WageRateCreate = z
  .object({
    employeeId: Id,
    roleId: Id.nullable().optional(),
    locationId: Id.nullable().optional(),
    hourlyRate: HourlyRate,
    effectiveFrom: CalendarDate.openapi({ description: "Shifts starting on this local date or later are paid the rate." }),
  })
  .openapi("WageRateCreate");

export const WageRatePatch = z.object({ hourlyRate: HourlyRate, effectiveFrom: CalendarDate }).partial().openapi("WageRatePatch");

export const WageRateListQuery = ListQuery.extend({ employeeId: queryIdParam("employeeId", "Only this staff member's rates.") });

export const WageRateParams = OrganizationParams.extend({ id: idParam("id", "Wage rate id") });

export const ResolveQuery = z.object({
  employeeId: Id.openapi({ param: { name: "employeeId", in: "query" } }),
  roleId: queryIdParam("roleId", "The shift's role."),
  locationId: queryIdParam("locationId", "The shift's location."),
  date: CalendarDate.openapi({ param: { name: "date", in: "query" }, description: "The local date the shift starts on." }),
});

export const ResolvedWage = z
  .object({
    hourlyRate: z.number().openapi({ example: 21.5 }),
    wageRateId: z.string().nullable(),
    source: z.enum(["WAGE_RATE", "ROLE", "STAFF_MEMBER"]),
  })
  .openapi("ResolvedWage");

export const serializeWageRate = (row: typeof wageRates.$inferSelect): z.infer<typeof WageRate> => ({
  id: row.id,
  employeeId: row.employeeId,
  roleId: row.roleId,
  locationId: row.locationId,
  hourlyRate: row.hourlyRate,
  effectiveFrom: row.effectiveFrom,
  active: row.active,
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
  deletedAt: isoOrNull(row.deletedAt),
});
