import type { Database } from "@/data/client";
import { sandboxesToRun, shiftedNow } from "@/data/clock";
import type { WakeUp } from "@/data/outbox/wake";
import type { ExportMessage } from "@/features/exports/export-chunk";
import { drainOutbox } from "@/webhook-delivery/drain";
import { runAccrualPass } from "./accrual-pass";
import { runAttendancePass } from "./attendance-pass";
import { resendStalledExports } from "./export-resend";

/** Statements of the attendance pass one sandbox may send per run (its few shifts need far fewer). */
export const SANDBOX_ATTENDANCE_STATEMENTS = 20;
/** Sandboxes the Cron runs per shard and invocation, a random few each time (the test clock's advance runs its own). */
export const SANDBOXES_PER_RUN = 2;

export interface SandboxPassReport {
  noShows: number;
  autoClockOuts: number;
  accrualEntries: number;
  /** Exports stalled by the sandbox's clock, sent to the exports queue again. */
  exportsResent: number;
}

/** The queues a sandbox's passes send to: its webhook endpoints' wake-ups, its stalled exports' messages. */
export interface SandboxQueues {
  webhooks: Queue<WakeUp>;
  exports: Queue<ExportMessage>;
}

/**
 * One sandbox's time-driven passes at its own time `now`: no-shows and automatic clock-outs (the attendance pass),
 * time-off accruals, the export retries (an export its clock says has stalled is sent again), then a wake-up of its webhook endpoints (what the passes raised, and retries whose backoff its
 * clock has passed). The live passes leave sandboxes out (data/clock `inPassScope`); this is where they run.
 */
export async function runSandboxPasses(
  db: Database,
  queues: SandboxQueues,
  organizationId: string,
  now: Date,
  maxStatements = SANDBOX_ATTENDANCE_STATEMENTS,
): Promise<SandboxPassReport> {
  const scope = { organizationId };
  const attendance = await runAttendancePass(db, now, maxStatements, scope);
  const accrual = await runAccrualPass(db, now, { scope });
  const resent = await resendStalledExports(db, queues.exports, now, scope);
  await drainOutbox(db, queues.webhooks, organizationId);
  return {
    noShows: attendance.noShows,
    autoClockOuts: attendance.autoClockOuts,
    accrualEntries: accrual.entries,
    exportsResent: resent.length,
  };
}

/** The Cron's share for sandboxes: a few of the shard's, each at its real time plus its test clock's offset. */
export async function runSandboxesPass(db: Database, queues: SandboxQueues, realNow: Date) {
  for (const sandbox of await sandboxesToRun(db, SANDBOXES_PER_RUN)) {
    await runSandboxPasses(db, queues, sandbox.id, shiftedNow(sandbox.offset, realNow.getTime()));
  }
}
