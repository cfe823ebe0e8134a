import { Hono } from "hono";
import { PatternRouter } from "hono/router/pattern-router";
import { RegExpRouter } from "hono/router/reg-exp-router";
import { SmartRouter } from "hono/router/smart-router";
import { TrieRouter } from "hono/router/trie-router";
import { describe, expect, it } from "vitest";
import { appFor, FEATURES, MOUNTS } from "@/app";
import { createRouter } from "@/platform/create-app";
import { mounts } from "@/platform/http/mounts";

describe("feature mounts", () => {
  it("picks the longest prefix a path starts with, * matching one segment", () => {
    const table = mounts([
      ["/api/organizations", "organizations"],
      ["/api/organizations/*/locations", "locations"],
      ["/api/organizations/*/locations/*/schedules", "scheduling"],
    ]);
    expect(table.featureOf("/api/organizations")).toBe("organizations");
    expect(table.featureOf("/api/organizations/o1")).toBe("organizations");
    expect(table.featureOf("/api/organizations/o1/locations/l1")).toBe("locations");
    expect(table.featureOf("/api/organizations/o1/locations/l1/schedules/drafts/")).toBe("scheduling");
    expect(table.featureOf("/api//organizations/o1/locations/l1")).toBe("locations");
    expect(table.featureOf("/api/organizations/locations/locations/l1/schedules")).toBe("scheduling");
    expect(table.featureOf("/api/organizationsX")).toBeUndefined();
    expect(table.featureOf("/")).toBeUndefined();
  });

  it("prefers the longest match whether it runs through a named segment or a *", () => {
    const table = mounts([
      ["/api/organizations/*/staffmembers", "staffMembers"],
      ["/api/organizations/*/staffmembers/*/locations/*", "timeTracking"],
      ["/api/organizations/*/locations/*/staffmembers", "staffMembers"],
      ["/api/organizations/*/locations", "locations"],
    ]);
    expect(table.featureOf("/api/organizations/locations/staffmembers/s1/locations/l1/clock-in")).toBe("timeTracking");
    expect(table.featureOf("/api/organizations/o1/locations/l1/staffmembers")).toBe("staffMembers");
    expect(table.featureOf("/api/organizations/o1/staffmembers/s1")).toBe("staffMembers");
  });

  it("sends every route of every feature to the feature that registers it", async () => {
    let routes = 0;
    for (const [name, feature] of Object.entries(FEATURES)) {
      const router = (await feature.load()).default;
      for (const route of router.routes) {
        const concrete = route.path.replace(/:[^/]+/g, "x").replace(/\*$/, "");
        expect(MOUNTS.featureOf(concrete), `${route.method} ${route.path}`).toBe(name);
        routes++;
      }
    }
    expect(routes).toBeGreaterThan(110);
  });

  it("serves each feature with its own routes and handlers, as hono's route() would mount them", async () => {
    // The serving apps add a feature's routes themselves (src/app.ts, addRoutes): the same routes as
    // `app.route("/", router)` only while no feature router sets an error handler of its own (route() would wrap each
    // handler in it), and on the feature routers' own PatternRouter.
    const defaultErrorHandler = (new Hono() as unknown as { errorHandler: unknown }).errorHandler;
    expect((createRouter() as unknown as { router: unknown }).router).toBeInstanceOf(PatternRouter);
    for (const [name, feature] of Object.entries(FEATURES)) {
      const router = (await feature.load()).default;
      expect((router as unknown as { errorHandler: unknown }).errorHandler, name).toBe(defaultErrorHandler);
      const first = router.routes.find((route) => route.method !== "ALL") ?? router.routes[0]!;
      const app = await appFor(first.path.replace(/:[^/]+/g, "x").replace(/\*$/, ""));
      const reference = new Hono().route("/", router);
      // The /mcp feature builds its router on each load: its handlers are compared by route only.
      const sameRouter = (await feature.load()).default === router;
      const mounted = (routes: { method: string; path: string; handler: unknown }[]) =>
        routes.map(({ method, path, handler }) => ({ method, path, ...(sameRouter && { handler }) }));
      const served = mounted(app.routes);
      for (const route of mounted(reference.routes)) expect(served, `${name}: ${route.method} ${route.path}`).toContainEqual(route);
      // Nothing but the routes: the serving app's registry stays empty (only the document's app merges the features').
      expect(app.openAPIRegistry.definitions, name).toEqual([]);
    }
  });

  it("matches every route alike with the serving router (PatternRouter) and hono's default router", async () => {
    // The document's app: the platform's middleware and every feature's routes, mounted as requests meet them.
    const app = await appFor("/api/openapi.json");
    const pattern = new PatternRouter<unknown>();
    const byDefault = new SmartRouter<unknown>({ routers: [new RegExpRouter(), new TrieRouter()] });
    for (const { method, path, handler } of app.routes) {
      pattern.add(method, path, handler);
      byDefault.add(method, path, handler);
    }
    const matched = (router: PatternRouter<unknown> | SmartRouter<unknown>, method: string, path: string) => {
      const [handlers, stash] = router.match(method, path);
      return handlers.map(([handler, params]) => [
        handler,
        Object.fromEntries(Object.entries(params).map(([name, value]) => [name, stash ? stash[value as number] : value])),
      ]);
    };
    expect(matched(pattern, "GET", "/api/unknown")).toEqual(matched(byDefault, "GET", "/api/unknown"));
    for (const { method, path } of app.routes) {
      const concrete = path.replace(/:[^/]+/g, "p1").replace(/\*$/, "x");
      for (const verb of method === "ALL" ? ["GET", "POST", "PATCH", "DELETE"] : [method]) {
        const expected = matched(byDefault, verb, concrete);
        expect(expected.length).toBeGreaterThan(0);
        expect(matched(pattern, verb, concrete), `${verb} ${concrete}`).toEqual(expected);
      }
    }
    expect(app.routes.length).toBeGreaterThan(110);
  });
});
