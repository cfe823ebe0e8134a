import type { roles } from "@db/schema";
import { z } from "@hono/zod-openapi";
import { iso, isoOrNull } from "@/platform/schemas/time";
import { ExternalId, Name, recordLifecycle } from "@/platform/schemas/validation";

const HourlyWage = z.number().min(0).max(1_000_000).openapi({ description: "Hourly wage in the organization's currency.", example: 18.5 });

export const Role = z
  .object({
    id: z.string().openapi({ example: "0193a5a0-7c1e-7b2a-9d4e-1f2a3b4c5d6e" }),
    organizationId: z.string().openapi({ example: "0193a5a0-7c1e-7b2a-9d4e-1f2a3b4c5d00" }),
    name: z.string().openapi({ example: "Barista" }),
    hourlyWage: HourlyWage.nullable(),
    externalId: z.string().nullable().openapi({ example: "role-7" }),
    ...recordLifecycle,
  })
  .openapi("Role");

export const RoleCreate = z
  .object({
    name: Name.openapi({ example: "Barista" }),
    hourlyWage: HourlyWage.nullable().optional(),
    externalId: ExternalId.optional(),
  })
  .openapi("RoleCreate");

export const RolePatch = z
  .object({
    name: Name.openapi({ example: "Head Barista" }),
    hourlyWage: HourlyWage.nullable(),
    externalId: ExternalId.nullable(),
  })
  .partial()
  .openapi("RolePatch");

export type RoleRow = typeof roles.$inferSelect;

export const serializeRole = (row: RoleRow): z.infer<typeof Role> => ({
  id: row.id,
  organizationId: row.organizationId,
  name: row.name,
  hourlyWage: row.hourlyWage,
  externalId: row.externalId,
  active: row.active,
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
  deletedAt: isoOrNull(row.deletedAt),
});
