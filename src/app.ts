import type { ExecutionContext, Hono, Schema } from "hono";
import { getPath } from "hono/utils/url";
import { authenticate } from "@/auth/authorize";
import { API_VERSIONS, LATEST_API_VERSION } from "@/domain/api-versions";
import { TOKEN_SCOPES } from "@/domain/token-scopes";
import { createApp } from "@/platform/create-app";
import type { AppBindings, AppOpenAPI } from "@/platform/http/env";
import { mounts } from "@/platform/http/mounts";
import { chain } from "@/platform/middleware/chain";
import { organizationDatabase } from "@/platform/middleware/database";
import { drainAfterWrites } from "@/platform/middleware/drain-outbox";
import { idempotency } from "@/platform/middleware/idempotency";
import { apiRateLimit } from "@/platform/middleware/rate-limit";
import { DOCUMENT_INTRODUCTION, TAGS } from "@/platform/openapi/helpers";

type FeatureModule = Promise<{ default: Hono<AppBindings, Schema, string> }>;

/**
 * Every feature, in the document's order, loaded on first use. Public features answer without a bearer token
 * (operator: its own secret); every other one runs behind `authenticate` and the shared middleware.
 */
export const FEATURES = {
  meta: { public: true, load: (): FeatureModule => import("@/features/meta/meta.index") },
  tokenExchange: { public: true, load: (): FeatureModule => import("@/features/token-exchange/token-exchange.index") },
  operator: { public: true, load: (): FeatureModule => import("@/features/operator/operator.index") },
  organizations: { public: false, load: (): FeatureModule => import("@/features/organizations/organizations.index") },
  locations: { public: false, load: (): FeatureModule => import("@/features/locations/locations.index") },
  holidays: { public: false, load: (): FeatureModule => import("@/features/holidays/holidays.index") },
  roles: { public: false, load: (): FeatureModule => import("@/features/roles/roles.index") },
  accessRoles: { public: false, load: (): FeatureModule => import("@/features/access-roles/access-roles.index") },
  breakTypes: { public: false, load: (): FeatureModule => import("@/features/break-types/break-types.index") },
  staffMembers: { public: false, load: (): FeatureModule => import("@/features/staff-members/staff-members.index") },
  availability: { public: false, load: (): FeatureModule => import("@/features/availability/availability.index") },
  timeTracking: { public: false, load: (): FeatureModule => import("@/features/time-tracking/time-tracking.index") },
  attendance: { public: false, load: (): FeatureModule => import("@/features/attendance/attendance.index") },
  shiftNotes: { public: false, load: (): FeatureModule => import("@/features/shift-notes/shift-notes.index") },
  timesheets: { public: false, load: (): FeatureModule => import("@/features/timesheets/timesheets.index") },
  pay: { public: false, load: (): FeatureModule => import("@/features/pay/pay.index") },
  timeOff: { public: false, load: (): FeatureModule => import("@/features/time-off/time-off.index") },
  scheduling: { public: false, load: (): FeatureModule => import("@/features/scheduling/scheduling.index") },
  events: { public: false, load: (): FeatureModule => import("@/features/events/events.index") },
  webhooks: { public: false, load: (): FeatureModule => import("@/features/webhooks/webhooks.index") },
  testClock: { public: false, load: (): FeatureModule => import("@/features/test-clock/test-clock.index") },
  exports: { public: false, load: (): FeatureModule => import("@/features/exports/exports.index") },
  jobs: { public: false, load: (): FeatureModule => import("@/features/jobs/jobs.index") },
  demand: { public: false, load: (): FeatureModule => import("@/features/demand/demand.index") },
  wageRates: { public: false, load: (): FeatureModule => import("@/features/wage-rates/wage-rates.index") },
  costCodes: { public: false, load: (): FeatureModule => import("@/features/cost-codes/cost-codes.index") },
  fairWorkweek: { public: false, load: (): FeatureModule => import("@/features/fair-workweek/fair-workweek.index") },
  workingTime: { public: false, load: (): FeatureModule => import("@/features/working-time/working-time.index") },
  fairWorkweekReport: { public: false, load: (): FeatureModule => import("@/features/fair-workweek/fair-workweek-report.index") },
  customFields: { public: false, load: (): FeatureModule => import("@/features/custom-fields/custom-fields.index") },
  scheduleCost: { public: false, load: (): FeatureModule => import("@/features/schedule-cost/schedule-cost.index") },
  kiosk: { public: false, load: (): FeatureModule => import("@/features/kiosk/kiosk.index") },
  deviceEnrollment: { public: true, load: (): FeatureModule => import("@/features/kiosk/kiosk-enroll.index") },
  photoFiles: { public: true, load: (): FeatureModule => import("@/features/photo-files/photo-files.index") },
  kioskPunches: { public: false, load: (): FeatureModule => import("@/features/time-tracking/kiosk-punches.index") },
  scheduleChanges: { public: false, load: (): FeatureModule => import("@/features/fair-workweek/schedule-changes.index") },
  // Public to the platform's middleware: /mcp checks its own bearer token, and each tool call is an API request.
  mcp: {
    public: true,
    load: async (): FeatureModule => ({
      default: (await import("@/features/mcp/mcp.index")).mcpRouter((request, env, ctx) => app.fetch(request, env, ctx)),
    }),
  },
  auditLog: { public: false, load: (): FeatureModule => import("@/features/audit-log/audit-log.index") },
} as const;

type FeatureName = keyof typeof FEATURES;

/** Mount prefixes → feature: the longest prefix a path starts with names the one feature a request loads. */
export const MOUNTS = mounts<FeatureName>([
  ["/api/health", "meta"],
  ["/api/docs", "meta"],
  ["/api/auth", "tokenExchange"],
  ["/operator", "operator"],
  ["/api/organizations", "organizations"],
  ["/api/organizations/*/locations", "locations"],
  ["/api/organizations/*/roles", "roles"],
  ["/api/organizations/*/access-roles", "accessRoles"],
  ["/api/organizations/*/locations/*/breaks", "breakTypes"],
  ["/api/organizations/*/locations/*/holidays", "holidays"],
  ["/api/organizations/*/staffmembers", "staffMembers"],
  ["/api/organizations/*/locations/*/staffmembers", "staffMembers"],
  ["/api/organizations/*/staffmembers/*/locations/*", "timeTracking"],
  ["/api/organizations/*/staffmembers/*/availability", "availability"],
  ["/api/organizations/*/availability", "availability"],
  ["/api/organizations/*/staffmembers/*/shift-notes", "shiftNotes"],
  ["/api/organizations/*/attendance-settings", "attendance"],
  ["/api/organizations/*/attendance-exceptions", "attendance"],
  ["/api/timesheets", "timesheets"],
  ["/api/organizations/*/locations/*/timesheets", "timesheets"],
  ["/api/timesheets/pay", "pay"],
  ["/api/timesheets/labor-cost", "pay"],
  ["/api/organizations/*/pay-rules", "pay"],
  ["/api/organizations/*/pay-period-settings", "pay"],
  ["/api/organizations/*/pay-periods", "pay"],
  ["/api/organizations/*/payroll-settings", "pay"],
  ["/api/organizations/*/reports/qualified-overtime", "pay"],
  ["/api/organizations/*/staffmembers/*/meal-waivers", "pay"],
  ["/api/organizations/*/policies", "timeOff"],
  ["/api/organizations/*/worker-policies", "timeOff"],
  ["/api/organizations/*/time-off-requests", "timeOff"],
  ["/api/organizations/*/time-off-settings", "timeOff"],
  ["/api/organizations/*/locations/*/schedules", "scheduling"],
  ["/api/organizations/*/locations/*/open-shifts", "scheduling"],
  ["/api/organizations/*/locations/*/shift-requests", "scheduling"],
  ["/api/organizations/*/events", "events"],
  ["/api/organizations/*/webhooks", "webhooks"],
  ["/api/organizations/*/test-clock", "testClock"],
  ["/api/organizations/*/exports", "exports"],
  ["/api/organizations/*/jobs", "jobs"],
  ["/api/organizations/*/locations/*/demand", "demand"],
  ["/api/organizations/*/locations/*/labor-targets", "demand"],
  ["/api/organizations/*/wage-rates", "wageRates"],
  ["/api/organizations/*/cost-codes", "costCodes"],
  ["/api/fair-workweek", "fairWorkweek"],
  ["/api/organizations/*/locations/*/fair-workweek", "fairWorkweek"],
  ["/api/organizations/*/staffmembers/*/good-faith-estimate", "fairWorkweek"],
  ["/api/organizations/*/custom-fields", "customFields"],
  ["/api/organizations/*/locations/*/schedules/cost", "scheduleCost"],
  ["/api/organizations/*/locations/*/devices", "kiosk"],
  ["/api/organizations/*/staffmembers/*/pin", "kiosk"],
  ["/api/organizations/*/staffmembers/*/pin-lock", "kiosk"],
  ["/api/kiosk", "kiosk"],
  ["/api/devices", "deviceEnrollment"],
  ["/api/photos", "photoFiles"],
  ["/api/kiosk/punches", "kioskPunches"],
  ["/api/kiosk/photos", "kioskPunches"],
  ["/api/organizations/*/schedule-changes", "scheduleChanges"],
  ["/api/organizations/*/staffmembers/*/consents", "scheduleChanges"],
  ["/api/organizations/*/fair-workweek/report", "fairWorkweekReport"],
  ["/mcp", "mcp"],
  ["/api/organizations/*/audit-log", "auditLog"],
  ["/api/working-time", "workingTime"],
  ["/api/organizations/*/locations/*/working-time", "workingTime"],
  ["/api/organizations/*/locations/*/school-terms", "workingTime"],
  ["/api/organizations/*/working-time", "workingTime"],
]);

const DOCUMENT_PATH = "/api/openapi.json";

const DOCUMENT = {
  openapi: "3.1.0",
  info: {
    title: "Shiftline API",
    version: LATEST_API_VERSION,
    "x-api-versions": API_VERSIONS,
    description: DOCUMENT_INTRODUCTION,
    contact: { name: "Shiftline API support", url: "https://shiftline.dev/support", email: "api@shiftline.dev" },
    license: { name: "Proprietary", url: "https://shiftline.dev/terms" },
  },
  security: [{ bearerAuth: [] }],
  tags: [...TAGS],
};

/** The served document: every feature's routes, finalized once per isolate. */
function serveDocument(app: AppOpenAPI) {
  app.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description:
      "An access token from `POST /api/auth/exchangeToken`. A token may carry scopes narrower than its role: each " +
      "operation's `x-required-scope` names the one it needs (`<area>:read` for GET, `<area>:write` otherwise; " +
      "`<area>:write` includes the reads, `*:read` and `*:write` every area), and a token whose scopes do not grant " +
      "it is answered 403 `INSUFFICIENT_SCOPE`.",
    "x-scopes": TOKEN_SCOPES,
  });
  let document: ReturnType<typeof app.getOpenAPI31Document> | undefined;
  app.get(DOCUMENT_PATH, async (c) => {
    // Only the document needs every event type's schema (the registry imports every feature's serializers) and the
    // finalizer: neither is evaluated at isolate startup.
    if (!document) {
      const [{ webhooksOfDocument }, { finalizeDocument }] = await Promise.all([
        import("@/event-forms/webhooks-document"),
        import("@/platform/openapi/finalize"),
      ]);
      document ??= finalizeDocument(app.getOpenAPI31Document(DOCUMENT), webhooksOfDocument());
    }
    const { openapi, info, ...rest } = document;
    // The origin answering is the server: generated clients and the docs page talk to whoever serves the document.
    return c.json({ openapi, info, servers: [{ url: new URL(c.req.url).origin, description: "This server" }], ...rest });
  });
}

/**
 * An app of these features: public routers first, then everything behind `authenticate`. With no feature it still
 * runs the shared middleware, so an unknown path answers as before: 401 without a token, 404 with one.
 */
async function buildApp(names: readonly FeatureName[], withDocument: boolean): Promise<AppOpenAPI> {
  const routers = await Promise.all(names.map(async (name) => ({ name, router: (await FEATURES[name].load()).default })));
  const app = createApp();
  const mount = withDocument ? (router: Hono<AppBindings, Schema, string>) => app.route("/", router) : addRoutes(app);
  for (const { name, router } of routers) if (FEATURES[name].public) mount(router);
  if (withDocument) serveDocument(app);
  // Three layers, not five (issue 36): `authenticate` and `organizationDatabase` refuse only before their `next()`, and
  // nothing runs after `apiRateLimit`'s inside its layer; the idempotency check, whose refusals the rate-limit
  // header and the drain still see, keeps a layer of its own.
  app.use("/api/*", authenticated, routedToOrganization, idempotency);
  for (const { name, router } of routers) if (!FEATURES[name].public) mount(router);
  return app;
}

/**
 * Mounts a feature's routes on an app that only serves requests: what `app.route("/", router)` adds to hono's router,
 * without the rest of OpenAPIHono's `route` (a clone of the app on a new default router, and the feature's document
 * entries merged into the app's registry, which only the document's app reads). A feature router sets no error
 * handler of its own (test/node/feature-mounts.test.ts), so each route keeps its handler as `route` would.
 */
const addRoutes = (app: AppOpenAPI) => (router: Hono<AppBindings, Schema, string>) => {
  for (const { method, path, handler } of router.routes) app.on(method, path, handler);
};

const authenticated = chain(authenticate, apiRateLimit);
const routedToOrganization = chain(organizationDatabase, drainAfterWrites);

const built = new Map<string, AppOpenAPI>();

/**
 * The app that serves `path`, built on its first request: its feature alone, or every feature for the document.
 * Only built apps are shared, never a build under way: a promise begun in one request and awaited by another is what
 * workerd cancels as hung when the first request ends before it settles, so requests arriving together while a
 * feature is cold each build it (its modules load once either way) and the first build finished is kept. A build that
 * failed is kept by nobody: the next request tries again.
 */
export async function appFor(path: string): Promise<AppOpenAPI> {
  const key = path === DOCUMENT_PATH ? DOCUMENT_PATH : (MOUNTS.featureOf(path) ?? "");
  const ready = built.get(key);
  if (ready) return ready;
  const app = await (key === DOCUMENT_PATH
    ? buildApp(Object.keys(FEATURES) as FeatureName[], true)
    : buildApp(key ? [key as FeatureName] : [], false));
  if (!built.has(key)) built.set(key, app);
  return built.get(key)!;
}

/**
 * Builds the app of every feature (and of no feature) now, one after another, so no request waits on a feature's
 * first load: the test setup calls it before a file's requests, since under vitest a module's import is I/O that
 * concurrent cold requests would share across requests (see `appFor`).
 */
export async function buildEveryApp(): Promise<void> {
  for (const key of ["", ...Object.keys(FEATURES)]) {
    if (!built.has(key)) built.set(key, await buildApp(key ? [key as FeatureName] : [], false));
  }
}

/**
 * The Worker's fetch over the feature apps, with Hono's `request` for tests that pass their own bindings. The mount is
 * looked up on hono's own path of the request (`getPath`: a scan of the URL string, what the feature app then routes
 * on), not on a second parse of the URL (issue 36).
 */
export const app = {
  async fetch(request: Request, env: Env, ctx?: ExecutionContext): Promise<Response> {
    return (await appFor(getPath(request))).fetch(request, env, ctx);
  },
  request(input: string | Request, init?: RequestInit, env?: object, ctx?: ExecutionContext): Promise<Response> {
    const request = input instanceof Request ? input : new Request(/^https?:/.test(input) ? input : `http://localhost${input}`, init);
    return app.fetch(request, env as Env, ctx);
  },
};
