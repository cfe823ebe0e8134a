import { applyD1Migrations, env } from "cloudflare:test";

await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
// The Worker builds its app on the first request (src/index.ts): load it here, outside any one test's time limit.
await import("../../src/app");
