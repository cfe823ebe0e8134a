/**
 * The import structure of src/ (`npm run check:imports`, run by `npm test`): no cycle between files or between
 * folders, and the layers point one way — features → platform, data, events, domain; nothing below imports above.
 * Type imports count: a cycle of types is still a cycle for a reader.
 */
const FEATURE = "^src/features/";
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
      to: { path: ["^src/platform/(middleware|openapi)/", "^src/platform/[^/]+$", FEATURE, "^src/(events|jobs|webhooks|auth|shards)/"] },
    },
    {
      name: "platform-knows-no-feature",
      severity: "error",
      comment: "src/platform serves every feature and knows none of them, nor their event forms.",
      from: { path: "^src/platform/" },
      to: { path: [FEATURE, "^src/(events|jobs)/"] },
    },
    {
      name: "features-are-leaves",
      severity: "error",
      comment:
        "Only the app's table of features, the events registry and the background jobs import a feature; features share " +
        "through src/features/shifts (the shift model, no router) and the time-off grants a staff write makes.",
      from: { path: "^src/", pathNot: ["^src/app\\.ts$", "^src/events/", "^src/jobs/", FEATURE] },
      to: { path: FEATURE },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^src/shims/" },
  },
};
