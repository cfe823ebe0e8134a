import type { WakeUp } from "@/data/outbox/wake";
import { shardBinding, shardConfig, shardOfOrganization } from "@/data/shards";

/**
 * The shard of a woken endpoint: its organization's, through the directory. A message from before sharding names
 * no organization: the endpoint is looked for on every shard. Null: it exists nowhere (deleted since), nothing to do.
 */
export async function webhookShard(env: Env, wakeUp: WakeUp): Promise<string | null> {
  if (wakeUp.organizationId !== undefined) return shardOfOrganization(env, wakeUp.organizationId);
  for (const shard of shardConfig(env).shards) {
    const found = await shardBinding(env, shard).prepare("SELECT 1 FROM webhooks WHERE id = ?").bind(wakeUp.webhookId).first();
    if (found) return shard;
  }
  return null;
}
