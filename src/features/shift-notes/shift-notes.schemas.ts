import type { shiftNotes } from "@db/schema";
import { z } from "@hono/zod-openapi";
import { idParam, OrganizationParams } from "@/platform/openapi/helpers";
import { iso } from "@/platform/schemas/time";
import { Timestamp } from "@/platform/schemas/validation";

export const ShiftNote = z
  .object({
    id: z.string(),
    shiftId: z.string(),
    authorId: z.string().openapi({ description: "The staff member who wrote it, or the partner id for an admin token." }),
    text: z.string().openapi({ example: "Covered the front desk from 2pm." }),
    createdAt: Timestamp,
  })
  .openapi("ShiftNote");

export const ShiftNoteCreate = z
  .object({ text: z.string().trim().min(1).max(2000).openapi({ example: "Covered the front desk from 2pm." }) })
  .openapi("ShiftNoteCreate");

export const StaffParams = OrganizationParams.extend({ id: idParam("id", "Staff member id") });

export const serializeShiftNote = (row: typeof shiftNotes.$inferSelect): z.infer<typeof ShiftNote> => ({
  id: row.id,
  shiftId: row.shiftId,
  authorId: row.authorId,
  text: row.text,
  createdAt: iso(row.createdAt),
});
