import { createDatabase } from "@/data/client";
import { partBytesOf } from "@/data/files";
import { filesOf, shardBinding, shardOfOrganization } from "@/data/shards";
import {
  type ChunkFault,
  chunkRows,
  EXPORT_ATTEMPTS,
  type ExportMessage,
  failExport,
  runExportChunk,
} from "@/features/exports/export-chunk";

/**
 * The exports queue's consumer: each message works the export's next chunk on the organization's shard and, when
 * more follow, sends the next message before it is acked. The row, not the message, says which chunk is next: a
 * message redelivered after a crash works whatever chunk is next, and a duplicate finds its chunk done and stops.
 * A failing chunk is retried with the queue's backoff; its last delivery marks the export (and its job) FAILED.
 *
 * Why a chain of queue messages and not a Workflow, as the pay close and the accrual pass are: the export row already
 * is the job's durable state (cursor, parts, pending tail, chunk number, moved by one conditional UPDATE a chunk), so
 * a Workflow's kept step results would hold nothing more; an export of any span has no bound on its chunks, where a
 * Workflow instance has one on its steps (10,000 by default, 25,000 at most: 5 years of 50,000 staff's shifts, 5 a
 * week, are ≈ 32,500 chunks of 2,000 rows); and the chain's safety net, the Cron's stall check
 * (src/jobs/export-resend.ts), runs at each sandbox's own test clock. The jobs row of the export's id moves in the same
 * batches as the chunks (src/features/exports/export-chunk.ts), so GET …/jobs/{id} follows it as it follows a Workflow.
 */
export async function workExports(batch: MessageBatch<ExportMessage>, env: Env) {
  for (const message of batch.messages) {
    const { exportId, organizationId } = message.body;
    const shard = await shardOfOrganization(env, organizationId);
    if (shard === null) {
      message.ack();
      continue;
    }
    const db = createDatabase(shardBinding(env, shard));
    try {
      const fault = faultOf(env, message.attempts);
      const next = await runExportChunk(db, filesOf(env, shard), exportId, chunkRows(env), partBytesOf(env), fault);
      if (next === "more") await env.EXPORT_QUEUE.send({ exportId, organizationId });
      message.ack();
    } catch (error) {
      if (message.attempts < EXPORT_ATTEMPTS) {
        message.retry({ delaySeconds: 5 * message.attempts });
        continue;
      }
      await failExport(db, filesOf(env, shard), exportId, error);
      message.ack();
    }
  }
}

/**
 * Tests only, when JOB_FAULTS is "allow": JOB_FAULT_STEPS names steps (`chunk-2`, `chunk-*` for every chunk) that fail
 * after their work on a message's first JOB_FAULT_TIMES deliveries; `chunk-2@write` fails after its R2 writes, before
 * its batch.
 */
function faultOf(env: object, attempts: number): ChunkFault | undefined {
  const vars = env as Partial<Record<"JOB_FAULTS" | "JOB_FAULT_STEPS" | "JOB_FAULT_TIMES", string>>;
  if (vars.JOB_FAULTS !== "allow" || !vars.JOB_FAULT_STEPS) return undefined;
  const named = vars.JOB_FAULT_STEPS.split(",");
  if (attempts > Number(vars.JOB_FAULT_TIMES ?? "1")) return undefined;
  return (step, at) => {
    const point = at === "write" ? "@write" : "";
    if (named.includes(`${step}${point}`) || named.includes(`chunk-*${point}`)) {
      throw new Error(`Injected failure ${at === "write" ? "before the batch of" : "after"} the step ${step} (delivery ${attempts}).`);
    }
  };
}

export type { ExportMessage } from "@/features/exports/export-chunk";
