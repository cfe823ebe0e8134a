import { z } from "@hono/zod-openapi";

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"] as const;

const fields = {
  allowPastRequests: z.boolean().openapi({ description: "Whether a request may start before today (organization's zone)" }),
  minimumNoticeDays: z.number().int().min(0).max(365).openapi({ description: "Days between today and a request's first date" }),
  requireNote: z.boolean().openapi({ description: "Whether a request must carry a note" }),
  fullDayHours: z.number().positive().max(24).openapi({ description: "A new policy's fullDayDuration when it names none" }),
  weekStartsOn: z.enum(WEEKDAYS).openapi({ description: "First day of the week for weekly views and reports" }),
};

export const TimeOffSettings = z.object({ ...fields, updatedAt: z.string() }).openapi("TimeOffSettings");

export const TimeOffSettingsPatch = z.object(fields).partial().openapi("TimeOffSettingsPatch");
