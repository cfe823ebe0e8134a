import { z } from "@hono/zod-openapi";
import { idParam, OrganizationParams } from "@/platform/openapi/helpers";
import { CalendarDate } from "@/platform/schemas/validation";

export const MealWaiverParams = OrganizationParams.extend({ id: idParam("id", "Staff member id") });

export const MealWaiverPut = z
  .object({
    effectiveFrom: CalendarDate.openapi({ description: "The local date from which this waiver governs the staff member's workdays." }),
    firstMeal: z.boolean().openapi({ description: "Waives the first meal period (where the rules let it be waived).", example: false }),
    secondMeal: z.boolean().openapi({ description: "Waives the second meal period (where the rules let it be waived).", example: true }),
  })
  .strict()
  .openapi("MealWaiverPut");

const MealWaiver = MealWaiverPut.openapi("MealWaiver");

export const MealWaivers = z
  .object({
    employeeId: z.string(),
    waivers: z.array(MealWaiver).openapi({
      description: "Every version, oldest effectiveFrom first: the newest on or before a workday governs it; none, nothing waived.",
    }),
  })
  .openapi("MealWaivers");

/** What `staff_member.meal_waivers_updated` carries: the version written and whose it is. */
export const MealWaiverEvent = MealWaiverPut.extend({ employeeId: z.string() }).openapi("MealWaiverEvent");

export type MealWaiverVersion = z.infer<typeof MealWaiverPut>;

export const serializeMealWaivers = (employeeId: string, waivers: readonly MealWaiverVersion[]): z.infer<typeof MealWaivers> => ({
  employeeId,
  waivers: [...waivers].sort((a, b) => (a.effectiveFrom < b.effectiveFrom ? -1 : a.effectiveFrom > b.effectiveFrom ? 1 : 0)),
});
