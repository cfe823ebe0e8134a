import { describe, expect, it } from "vitest";
import { FEATURES, MOUNTS } from "@/app";
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
    expect(table.featureOf("/api/organizationsX")).toBeUndefined();
    expect(table.featureOf("/")).toBeUndefined();
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
});
