import type { breakTypes } from "@db/schema";
import { z } from "@hono/zod-openapi";
import { idParam, OrganizationParams } from "@/platform/openapi/helpers";
import { iso, isoOrNull } from "@/platform/schemas/time";
import { Name, recordLifecycle } from "@/platform/schemas/validation";

const minutes = (min: number) =>
  z
    .number()
    .int()
    .min(min)
    .max(24 * 60);

export const BreakType = z
  .object({
    id: z.string().openapi({ example: "0193a5a0-7c1e-7b2a-9d4e-1f2a3b4c5d6e" }),
    name: z.string().openapi({ example: "Lunch" }),
    locationId: z.string(),
    durationMinutes: z.number().int().openapi({ example: 30 }),
    frequencyMinutes: z.number().int().openapi({ example: 360 }),
    paid: z.boolean().openapi({ example: false }),
    mandatory: z.boolean().openapi({ example: true }),
    enabled: z.boolean().openapi({ example: true }),
    ...recordLifecycle,
  })
  .openapi("BreakType");

const breakTypeFields = {
  name: Name.openapi({ example: "Lunch" }),
  durationMinutes: minutes(1).openapi({ example: 30, description: "Length of the break in minutes." }),
  frequencyMinutes: minutes(0).openapi({
    example: 360,
    description:
      "For a mandatory break: a shift longer than this should include it. One that does not is never deducted; its clock-out raises MISSED_MEAL_BREAK.",
  }),
  paid: z.boolean().openapi({ example: false }),
  mandatory: z.boolean().openapi({ example: true }),
  enabled: z.boolean().openapi({ example: true }),
};

export const BreakTypeCreate = z
  .object({
    ...breakTypeFields,
    mandatory: breakTypeFields.mandatory.default(false),
    enabled: breakTypeFields.enabled.default(true),
  })
  .openapi("BreakTypeCreate");

/** Built from the fields without their create defaults: a PATCH changes only what it names. */
export const BreakTypePatch = z.object(breakTypeFields).partial().openapi("BreakTypePatch");

export const LocationParams = OrganizationParams.extend({ id: idParam("id", "Location id") });

export const BreakTypeParams = LocationParams.extend({ breakId: idParam("breakId", "Break type id") });

export const serializeBreakType = (row: typeof breakTypes.$inferSelect): z.infer<typeof BreakType> => ({
  id: row.id,
  name: row.name,
  locationId: row.locationId,
  durationMinutes: row.durationMinutes,
  frequencyMinutes: row.frequencyMinutes,
  paid: row.paid,
  mandatory: row.mandatory,
  enabled: row.enabled,
  active: row.active,
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
  deletedAt: isoOrNull(row.deletedAt),
});
