import { applyD1Migrations, env } from "cloudflare:test";
import { shardBinding, shardConfig } from "@/data/shards";
import { emptyDatabase } from "./empty-database";

// Every shard gets the same migrations, as `npm run db:migrate:local` does; DB also holds the directory.
// The worker project runs its files one after another in one workerd (vitest's `isolate: false`, for speed): each
// file still starts on empty databases, as it would in a runtime of its own.
for (const shard of shardConfig(env).shards) {
  const db = shardBinding(env, shard);
  await applyD1Migrations(db, env.TEST_MIGRATIONS);
  await emptyDatabase(db);
}
// The Worker builds its app on the first request (src/worker.ts): load it here, outside any one test's time limit.
await import("@/app");
