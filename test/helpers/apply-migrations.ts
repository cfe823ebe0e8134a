import { applyD1Migrations, env } from "cloudflare:test";
import { shardBinding, shardConfig } from "@/data/shards";

// Every shard gets the same migrations, as `npm run db:migrate:local` does; DB also holds the directory.
for (const shard of shardConfig(env).shards) await applyD1Migrations(shardBinding(env, shard), env.TEST_MIGRATIONS);
// The Worker builds its app on the first request (src/worker.ts): load it here, outside any one test's time limit.
await import("@/app");
