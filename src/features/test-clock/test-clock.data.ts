import { organizations } from "@db/schema";
import { and, eq, lte, sql } from "drizzle-orm";
import { guardedBatch, type Writer } from "@/data/write/guarded-batch";
import { testClockEvent } from "./test-clock.schemas";

export { testClockOf } from "@/data/clock";

/**
 * Moves a sandbox's clock offset to `offsetMs`, only forward and only on a sandbox (the condition is the statement's),
 * with its `test_clock.advanced` event when it moved. Answers whether it did.
 */
export async function advanceClock(writer: Writer, organizationId: string, offsetMs: number, from: Date, to: Date) {
  const [[moved]] = await guardedBatch(
    writer,
    [
      writer.db
        .update(organizations)
        .set({ clockOffsetMs: offsetMs })
        .where(
          and(eq(organizations.id, organizationId), eq(organizations.sandbox, true), lte(organizations.clockOffsetMs, sql`${offsetMs}`)),
        )
        .returning({ id: organizations.id }),
    ],
    [],
    {
      events: [
        { type: "test_clock.advanced", organizationId, occurredAt: to, data: testClockEvent(organizationId, from, to), whenChanged: true },
      ],
    },
  );
  return moved !== undefined;
}
