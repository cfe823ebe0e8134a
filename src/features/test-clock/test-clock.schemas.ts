import { z } from "@hono/zod-openapi";
import { Instant, Timestamp } from "@/platform/schemas/validation";

export const TestClock = z
  .object({
    organizationId: z.string(),
    now: Timestamp.openapi({ description: "The sandbox's time now: the real time plus how far its clock was advanced." }),
    advancedBySeconds: z.number().int().openapi({ description: "How far the sandbox's clock runs ahead of the real clock." }),
  })
  .openapi("TestClock");

export const TestClockAdvance = z
  .object({
    to: Instant.openapi({
      description: "The sandbox's new time: not before its time now, at most 90 days after it.",
      example: "2026-03-14T09:00:00Z",
    }),
  })
  .strict()
  .openapi("TestClockAdvance");

export const TestClockAdvanced = TestClock.extend({
  ran: z
    .object({
      noShows: z.number().int().openapi({ description: "NO_SHOW exceptions raised at the new time." }),
      autoClockOuts: z.number().int().openapi({ description: "Open shifts closed automatically (MISSED_CLOCK_OUT)." }),
      accrualEntries: z.number().int().openapi({ description: "Time-off accrual entries written." }),
      exportsResent: z.number().int().openapi({
        description: "Exports QUEUED or RUNNING whose row has not moved for 5 minutes of the sandbox's clock, sent to work again.",
      }),
    })
    .openapi({ description: "What the time-driven passes did for the sandbox at its new time, before answering." }),
}).openapi("TestClockAdvanced");

/** The `test_clock.advanced` event's data. */
export const testClockEvent = (organizationId: string, from: Date, to: Date) => ({
  organizationId,
  from: from.toISOString(),
  to: to.toISOString(),
});
