import { z } from "@hono/zod-openapi";
import { WORKING_TIME_RULES } from "@/domain/working-time/checks";
import { CalendarDate } from "@/platform/schemas/validation";

/** A working-time rule broken, as schedule writes (409 WORKING_TIME_CONFLICT), the publish dry run and the report list it. */
export const WorkingTimeViolation = z
  .object({
    rule: z.enum(WORKING_TIME_RULES),
    limit: z.number().openapi({ description: "The pack's figure (hours; MINUTES for breaks; hours after midnight for TIME_OF_DAY)." }),
    actual: z.number().openapi({ description: "What was worked or planned, in the same unit, to 2 decimals." }),
    unit: z.enum(["HOURS", "MINUTES", "TIME_OF_DAY"]),
    date: CalendarDate.openapi({ description: "The local date (a week's, window's or month's first) it is about." }),
    scheduleEntryIds: z
      .array(z.string())
      .openapi({ description: "The published or planned entries involved (a new entry has no id yet)." }),
    shiftIds: z.array(z.string()).openapi({ description: "The worked shifts involved." }),
    source: z.string().openapi({ description: "The article the limit comes from." }),
  })
  .openapi("WorkingTimeViolation");
