/**
 * The import structure of src/ (`npm run check:imports`, run by `npm test`): no cycle between files or between
 * folders, and the layers point one way — features → wire, auth, platform, data, domain; nothing below imports above.
 * Type imports count: a cycle of types is still a cycle for a reader.
 */
const FEATURE = "^src/features/";

/**
 * The only feature → feature imports, each with its reason: features are leaves, and what several need lives a layer
 * down (src/data, src/wire, src/domain, src/auth). A pair's target imports no feature, so there is no chain.
 */
const FEATURE_PAIRS = {
  // A punch raises its attendance exceptions (late, early, unscheduled…) in the punch's own batch: one transaction.
  "time-tracking": ["attendance"],
};
module.exports = {
  forbidden: [
    { name: "no-file-cycle", severity: "error", comment: "Files import each other in a loop.", from: {}, to: { circular: true } },
    {
      name: "no-folder-cycle",
      severity: "error",
      comment: "Folders import each other in a loop: split the shared part into a lower folder.",
      scope: "folder",
      from: {},
      to: { circular: true },
    },
    {
      name: "domain-is-pure",
      severity: "error",
      comment: "src/domain holds rules on plain data: it imports nothing of the app, no library of the platform.",
      from: { path: "^src/domain/" },
      to: { pathNot: ["^src/domain/", "^node_modules/"] },
    },
    {
      name: "data-below-http",
      severity: "error",
      comment: "src/data is D1 and drizzle: it knows no middleware, route, feature or event serializer.",
      from: { path: "^src/data/" },
      to: { path: ["^src/platform/(middleware|openapi)/", "^src/platform/[^/]+$", FEATURE, "^src/(event-forms|jobs|webhook-delivery|auth|shards)/"] },
    },
    {
      name: "platform-knows-no-feature",
      severity: "error",
      comment: "src/platform serves every feature and knows none of them, nor their event forms.",
      from: { path: "^src/platform/" },
      to: { path: [FEATURE, "^src/(event-forms|jobs)/"] },
    },
    {
      name: "only-the-app-imports-features",
      severity: "error",
      comment:
        "Only the app's table of features, the events registry and the background jobs import a feature: what several " +
        "features need lives a layer down (src/data, src/wire, src/domain, src/auth).",
      from: { path: "^src/", pathNot: ["^src/app\\.ts$", "^src/event-forms/", "^src/jobs/", FEATURE] },
      to: { path: FEATURE },
    },
    {
      name: "features-are-leaves",
      severity: "error",
      comment: "A feature imports no other feature but the pairs of FEATURE_PAIRS.",
      from: { path: "^src/features/([^/]+)/" },
      to: {
        path: FEATURE,
        pathNot: ["^src/features/$1/", ...Object.entries(FEATURE_PAIRS).map(([from, to]) => `^src/features/(${to.join("|")})/`)],
      },
    },
    ...Object.entries(FEATURE_PAIRS).map(([from, to]) => ({
      name: `only-${from}-imports-${to.join("-")}`,
      severity: "error",
      comment: `FEATURE_PAIRS: only ${from} imports ${to.join(", ")}.`,
      from: { path: FEATURE, pathNot: [`^src/features/(${from}|${to.join("|")})/`] },
      to: { path: `^src/features/(${to.join("|")})/` },
    })),
    {
      name: "handlers-query-through-data",
      severity: "error",
      comment:
        "A handler reads, calls domain and writes through its feature's *.data.ts (or src/data): it builds no query, so " +
        "it imports neither drizzle nor the tables (drizzle/schema, @db/schema).",
      from: { path: "\\.handlers\\.ts$" },
      to: { path: ["(^|/)node_modules/drizzle-orm/", "^drizzle/"] },
    },
    {
      name: "data-knows-no-hono",
      severity: "error",
      comment:
        "A *.data.ts takes the database and plain values, never Hono's Context: the handler reads c.var and c.req and " +
        "passes them, and answers (headers, links, ETags) what the data module returns. Types of a request body come " +
        "from the feature's *.schemas.ts (z.infer there), not from @hono/zod-openapi.",
      from: { path: "\\.data\\.ts$" },
      to: { path: "(^|/)node_modules/(hono|@hono/)" },
    },
    {
      name: "wire-is-shapes",
      severity: "error",
      comment:
        "src/wire holds the wire forms (zod schemas, row types and serializers) several features answer with, below " +
        "src/data (which reads rows as their types): it imports only the shared zod primitives, the OpenAPI helpers, " +
        "domain and problems — no D1, request, route, feature, event or job.",
      from: { path: "^src/wire/" },
      to: {
        path: [FEATURE, "^src/(data|event-forms|jobs|webhook-delivery|auth|shards)/", "^src/platform/(http|crud|middleware|routes)/"],
      },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^src/shims/" },
  },
};
