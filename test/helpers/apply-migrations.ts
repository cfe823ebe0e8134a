import { applyD1Migrations, env } from "cloudflare:test";
import { exports } from "cloudflare:workers";
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
// Every feature's app built and the Worker's D1 guard loaded before a file's tests, outside any one test's time limit.
// Under vitest a module's import is an RPC to the module runner, even once loaded, and concurrent imports of one module
// share it: requests arriving together for a cold feature would wait on I/O begun by another request, which workerd
// refuses ("Cannot perform I/O on behalf of a different request") or cancels as hung. A deployed Worker's modules are
// in its bundle: nothing to share. The health request loads the guard through the Worker's own fetch (src/worker.ts).
const { buildEveryApp } = await import("@/app");
await buildEveryApp();
await exports.default.fetch(new Request("http://shiftline.test/api/health"));
// Likewise the custom-field pattern engine (re2js), which a request imports the first time it checks a pattern.
await (await import("@/domain/custom-fields")).loadPatternEngine();
// And the MCP SDK, which /mcp imports on its first request.
await (await import("@/features/mcp/mcp.index")).loadMcpServer();
