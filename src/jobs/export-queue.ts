import { createDatabase } from "@/data/client";
import { partBytesOf } from "@/data/files";
import { filesOf, shardBinding, shardOfOrganization } from "@/data/shards";
import { chunkRows, EXPORT_ATTEMPTS, type ExportMessage, failExport, runExportChunk } from "@/features/exports/export-chunk";

/**
 * The exports queue's consumer: each message works the export's next chunk on the organization's shard and, when
 * more follow, sends the next message before it is acked. The row, not the message, says which chunk is next: a
 * message redelivered after a crash works whatever chunk is next, and a duplicate finds its chunk done and stops.
 * A failing chunk is retried with the queue's backoff; its last delivery marks the export FAILED.
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
      const next = await runExportChunk(db, filesOf(env, shard), exportId, chunkRows(env), partBytesOf(env));
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
export type { ExportMessage } from "@/features/exports/export-chunk";
