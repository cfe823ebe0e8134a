import type { accessRoles } from "@db/schema";
import { z } from "@hono/zod-openapi";
import { isPermission, PERMISSIONS, type Permission } from "@/domain/permissions";
import { iso, isoOrNull } from "@/platform/schemas/time";
import { Name, recordLifecycle } from "@/platform/schemas/validation";

const PermissionName = z.enum(PERMISSIONS).openapi("Permission", {
  description: "ORGANIZATION_ADMIN includes LOCATION_ADMIN, which includes every other permission.",
  example: "SHIFT_READ",
});

const Permissions = z
  .array(PermissionName)
  .max(100)
  .openapi({ description: "Permissions granted; duplicates are dropped.", example: ["SHIFT_READ", "TIMEOFF_READ"] });

export const AccessRole = z
  .object({
    id: z.string().openapi({ example: "0193a5a0-7c1e-7b2a-9d4e-1f2a3b4c5d6e" }),
    organizationId: z.string().openapi({ example: "0193a5a0-7c1e-7b2a-9d4e-1f2a3b4c5d00" }),
    name: z.string().openapi({ example: "Shift lead" }),
    permissions: z.array(PermissionName).openapi({ example: ["SHIFT_READ", "TIMEOFF_READ"] }),
    ...recordLifecycle,
  })
  .openapi("AccessRole");

export const AccessRoleCreate = z
  .object({
    name: Name.openapi({ example: "Shift lead" }),
    permissions: Permissions.default([]),
  })
  .openapi("AccessRoleCreate");

export const AccessRolePatch = z
  .object({
    name: Name.openapi({ example: "Senior shift lead" }),
    permissions: Permissions,
  })
  .partial()
  .openapi("AccessRolePatch");

/** Keeps the first occurrence of each permission, in the order sent. */
export const distinctPermissions = (permissions: Permission[]): Permission[] => [...new Set(permissions)];

export type AccessRoleRow = typeof accessRoles.$inferSelect;

export const serializeAccessRole = (row: AccessRoleRow): z.infer<typeof AccessRole> => ({
  id: row.id,
  organizationId: row.organizationId,
  name: row.name,
  permissions: row.permissions.filter(isPermission),
  active: row.active,
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
  deletedAt: isoOrNull(row.deletedAt),
});
