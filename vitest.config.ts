import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import devPartner from "./dev/dev-partner.private.jwk.json";
import secondPartner from "./test/helpers/second-partner.private.jwk.json";

/** The `@/` and `@db/` import aliases of tsconfig.json (wrangler's esbuild reads them there; vite needs them here). */
const alias = [
  { find: /^@\//, replacement: `${import.meta.dirname}/src/` },
  { find: /^@db\//, replacement: `${import.meta.dirname}/drizzle/` },
  // The SDK as an integrator imports it (sdk/package.json), from its source: no workspace, no build step.
  { find: /^@shiftline\/sdk$/, replacement: `${import.meta.dirname}/sdk/src/index.ts` },
  // Written by the worker projects' global setup (test/setup/response-validators.ts).
  { find: /^@generated\/(.*)$/, replacement: `${import.meta.dirname}/test/.generated/$1.js` },
];

type Limits = Record<"api" | "punches" | "exchange" | "enroll" | "mcp", number>;
const bindingNames = {
  api: "API_RATE_LIMITER",
  punches: "PUNCH_RATE_LIMITER",
  exchange: "EXCHANGE_RATE_LIMITER",
  enroll: "ENROLL_RATE_LIMITER",
  mcp: "MCP_RATE_LIMITER",
} as const;

/** The [[ratelimits]] bindings and the RATE_LIMITS var they must match, at the given limits per 60 s. */
const rateLimits = (limits: Limits) => ({
  ratelimits: Object.fromEntries(
    Object.entries(bindingNames).map(([policy, binding], i) => [
      binding,
      { namespace_id: String(1001 + i), simple: { limit: limits[policy as keyof Limits], period: 60 as const } },
    ]),
  ),
  RATE_LIMITS: JSON.stringify(Object.fromEntries(Object.entries(limits).map(([policy, limit]) => [policy, { limit, period: 60 }]))),
});

/** wrangler.toml's development partner and a second partner, whose organizations the tenancy matrix tries too. */
const publicKey = ({ d: _, ...jwk }: { d: string }) => jwk;
const PARTNER_KEYS = JSON.stringify({ "dev-partner": publicKey(devPartner), "second-partner": publicKey(secondPartner) });

const workerProject = async (name: string, include: string[], exclude: string[], limits: Limits) => {
  const { ratelimits, RATE_LIMITS } = rateLimits(limits);
  return {
    resolve: { alias },
    plugins: [
      cloudflareTest(async () => ({
        // wrangler.toml's bindings, each with its own local storage: the shards DB, DB_SHARD_2 and DB_SHARD_EU (the EU
        // region's), and the buckets FILES and FILES_EU (test/shards/data-regions.test.ts).
        wrangler: { configPath: "./wrangler.toml" },
        // The sources through vite, not wrangler.toml's `main` (the deployed build in dist/, scripts/build-worker.mjs).
        main: "./src/worker.ts",
        miniflare: {
          ratelimits,
          // Export jobs are worked by the tests themselves, message by message through the queue handler
          // (test/features/exports/exports.test.ts): their messages go to a queue nothing consumes, so no job runs in the background
          // while another test compares the database before and after a request. Webhook wake-ups too: the tests deliver
          // through the queue handler or deliverPending with a fake receiver (test/features/webhooks), never the network.
          queueProducers: {
            WEBHOOK_QUEUE: { queueName: "shiftline-webhooks-unconsumed" },
            EXPORT_QUEUE: { queueName: "shiftline-exports-unconsumed" },
          },
          bindings: {
            TOKEN_SECRET: "test-secret-not-for-production-0123456789",
            OPERATOR_SECRET: "test-operator-secret-not-for-production",
            PHOTO_URL_SECRET: "test-photo-url-secret-not-for-production",
            // base64 of 32 bytes: the AES-GCM key of stored webhook secrets (tests only).
            WEBHOOK_SECRET_KEY: "dGVzdC13ZWJob29rLWtleS1ub3QtZm9yLXByb2R1Y3Q=",
            TEST_MIGRATIONS: await readD1Migrations("./migrations"),
            RATE_LIMITS,
            PARTNER_KEYS,
            // The suites move organizations with no settle time and request them at once from the same isolate; the
            // directory entries an isolate keeps are tested with their own lifetime (test/data/shard-routes.test.ts).
            DIRECTORY_CACHE_SECONDS: "0",
            FUZZ_RUNS: process.env.FUZZ_RUNS ?? "",
            // Every invocation's D1 bindings refuse what production D1 would (src/worker.ts, src/data/d1-limits.ts).
            D1_LIMITS_ENFORCED: "1",
            // Export jobs in chunks of a few rows, so a handful of shifts takes several chunks (test/features/exports/exports.test.ts).
            EXPORT_CHUNK_ROWS: "2",
            // A close job's steps fail where a test's request names them (JOB_FAULT_STEPS; src/jobs/pay-close-workflow.ts).
            JOB_FAULTS: "allow",
          },
        },
      })),
    ],
    // A shard move's test runs ≈ 6 s on a loaded 2-core machine, over vitest's default 5 s: a hang still fails.
    // The files of a vitest worker share one runtime (isolate: false; ≈ 2 s a file saved), each starting on emptied
    // databases with every feature's app built (test/helpers/apply-migrations.ts): under vitest every dynamic import is
    // an RPC to the module runner that concurrent requests would share across request contexts (src/worker.ts).
    test: {
      name,
      include,
      exclude,
      globalSetup: ["./test/setup/response-validators.ts"],
      setupFiles: ["./test/helpers/apply-migrations.ts"],
      testTimeout: 30_000,
      isolate: false,
    },
  };
};

export default defineConfig({
  test: {
    // Two runtimes side by side on the 2-core machines here (vitest's default is one less than the cores): the workerd
    // files share them, and the Node checks (document lint, client types) run beside the workerd ones.
    maxWorkers: 2,
    projects: [
      // Limits no test reaches: the suites send thousands of requests with one token within a minute.
      workerProject("worker", ["test/**/*.test.ts"], ["test/node/**", "test/rate-limits/**"], {
        api: 1_000_000,
        punches: 1_000_000,
        exchange: 1_000_000,
        enroll: 1_000_000,
        mcp: 1_000_000,
      }),
      // The real bindings at small limits, so a handful of requests reaches each.
      workerProject("rate-limits", ["test/rate-limits/**/*.test.ts"], [], { api: 5, punches: 8, exchange: 3, enroll: 3, mcp: 4 }),
      {
        resolve: { alias },
        test: {
          name: "node",
          environment: "node",
          include: ["test/node/**/*.test.ts"],
          // A hang guard, not a speed target: Spectral over ≈ 200 operations takes 20–100 s on a loaded 2-core machine.
          testTimeout: 180_000,
        },
      },
    ],
  },
});
