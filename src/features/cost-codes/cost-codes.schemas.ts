import type { costCodes } from "@db/schema";
import { z } from "@hono/zod-openapi";
import { idParam, OrganizationParams } from "@/platform/openapi/helpers";
import { iso, isoOrNull } from "@/platform/schemas/time";
import { ExternalId, Name, recordLifecycle } from "@/platform/schemas/validation";

const Code = z.string().trim().min(1).max(64).openapi({ example: "4100-LABOR" });
const ParentId = z
  .string()
  .min(1)
  .max(64)
  .openapi({ description: "The parent code's id; null for a root.", example: "0193a5a0-7c1e-7b2a-9d4e-1f2a3b4c5d6e" });

export const CostCode = z
  .object({
    id: z.string().openapi({ example: "0193a5a0-7c1e-7b2a-9d4e-1f2a3b4c5d6f" }),
    parentId: z.string().nullable(),
    code: z.string().openapi({ example: "4100-LABOR" }),
    name: z.string().openapi({ example: "Site labor" }),
    externalId: z.string().nullable().openapi({ example: "erp-4100" }),
    ...recordLifecycle,
  })
  .openapi("CostCode");

export const CostCodeCreate = z
  .object({
    parentId: ParentId.nullable().optional(),
    code: Code,
    name: Name.openapi({ example: "Site labor" }),
    externalId: ExternalId.nullable().optional(),
    active: z.boolean().default(true).openapi({ description: "An inactive code cannot be charged (clock-in, shifts)." }),
  })
  .openapi("CostCodeCreate");

export const CostCodePatch = z
  .object({
    name: Name.openapi({ example: "Site labor" }),
    parentId: ParentId.nullable(),
    code: Code,
    externalId: ExternalId.nullable(),
    active: z.boolean(),
  })
  .partial()
  .openapi("CostCodePatch");

export const CostCodeParams = OrganizationParams.extend({ id: idParam("id", "Cost code id") });

/** PUT …/assignments: every staff member (`all: true`) or exactly these (an empty list: nobody). */
export const CostCodeAssignmentsPut = z
  .object({
    all: z.literal(true).optional().openapi({ description: "Assign the code to every staff member." }),
    employeeIds: z
      .array(z.string().min(1).max(64))
      .max(1000)
      .refine((ids) => new Set(ids).size === ids.length, "must not repeat an id")
      .optional()
      .openapi({ description: "Exactly these staff members (replacing the previous assignment); [] for nobody." }),
  })
  .superRefine((body, ctx) => {
    if ((body.all === undefined) === (body.employeeIds === undefined))
      ctx.addIssue({ code: "custom", path: ["employeeIds"], message: "give either employeeIds or all: true" });
  })
  .openapi("CostCodeAssignmentsPut", { example: { employeeIds: ["0193a5a0-7c1e-7b2a-9d4e-1f2a3b4c5d70"] } });

export const CostCodeAssignments = z
  .object({
    costCodeId: z.string(),
    all: z.boolean().openapi({ description: "Every staff member may use the code (then `employeeIds` is empty)." }),
    employeeIds: z.array(z.string()).openapi({ description: "The staff members assigned, in id order." }),
  })
  .openapi("CostCodeAssignments");

export type CostCodeRow = typeof costCodes.$inferSelect;

export const serializeCostCode = (row: CostCodeRow): z.infer<typeof CostCode> => ({
  id: row.id,
  parentId: row.parentId,
  code: row.code,
  name: row.name,
  externalId: row.externalId,
  active: row.active,
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
  deletedAt: isoOrNull(row.deletedAt),
});
