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
// The Worker builds its app on the first request (src/worker.ts): load it here, outside any one test's time limit,
// with every feature module. Under vitest a feature's first dynamic import is I/O (the module runner fetches it) done in
// the context of the request that asked first; requests arriving together for a cold feature all wait on that one
// import, and workerd cancels the others when the first ends ("hung", "Cannot perform I/O on behalf of a different
// request"). A deployed Worker's modules are in its bundle: no I/O, nothing to share.
const { FEATURES } = await import("@/app");
await Promise.all(Object.values(FEATURES).map((feature) => feature.load()));
