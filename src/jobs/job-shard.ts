import type { Database } from "@/data/client";

/**
 * The shard of a job's organization for its steps: its database and files, under the D1 limits' guard in tests and the
 * bench (D1_LIMITS_ENFORCED). Every Workflow's steps reach their organization through it.
 */
export async function jobShard(env: Env, organizationId: string): Promise<{ db: Database; files: R2Bucket }> {
  const { createDatabase } = await import("@/data/client");
  const { filesOf, shardBinding, shardOfOrganization } = await import("@/data/shards");
  let guarded = env;
  if ((env as { D1_LIMITS_ENFORCED?: string }).D1_LIMITS_ENFORCED === "1") guarded = (await import("@/data/limited-d1")).limitedEnv(env);
  const shard = await shardOfOrganization(guarded, organizationId);
  if (shard === null) throw new Error(`The organization ${organizationId} is in no shard.`);
  return { db: createDatabase(shardBinding(guarded, shard)), files: filesOf(guarded, shard) };
}
