import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";

describe("meta", () => {
  it("GET /api/health answers ok with the database", async () => {
    const res = await api("GET", "/api/health");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok", database: "ok" });
    expect(res.headers.get("X-Request-Id")).toBeTruthy();
  });

  it("GET /api/openapi.json serves an OpenAPI 3.1 document", async () => {
    const res = await api("GET", "/api/openapi.json");
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe("3.1.0");
    expect(res.body.components.securitySchemes.bearerAuth.scheme).toBe("bearer");
    expect(res.body.servers).toEqual([{ url: "http://shiftline.test", description: "This server" }]);
    expect(res.headers.get("X-Request-Id")).toBeTruthy();
  });

  it("OPTIONS /api/* lets browsers read every declared response header", async () => {
    const res = await api("OPTIONS", "/api/organizations", {
      headers: { Origin: "https://app.example", "Access-Control-Request-Method": "POST" },
    });
    const get = await api("GET", "/api/health", { headers: { Origin: "https://app.example" } });
    const exposed = (get.headers.get("Access-Control-Expose-Headers") ?? "").split(/,\s*/);
    expect(res.status).toBe(204);
    expect(exposed).toEqual(expect.arrayContaining(["Link", "X-Request-Id", "Idempotent-Replayed", "Content-Disposition"]));
  });

  it("GET /api/docs renders the reference from this Worker's own script", async () => {
    const res = await api("GET", "/api/docs");
    expect(res.status).toBe(200);
    expect(res.text).toContain('src="/api/docs/scalar.js"');
    expect(res.text).not.toMatch(/https?:\/\/(cdn|fonts)\./);
    // Scalar's hosted services are switched off: they cannot work for a self-hosted API.
    for (const option of [
      '"agent":{"disabled":true}',
      '"mcp":{"disabled":true}',
      '"hideClientButton":true',
      '"showDeveloperTools":"never"',
    ]) {
      expect(res.text.replace(/\s+/g, "")).toContain(option);
    }
    const script = await api("GET", "/api/docs/scalar.js");
    expect(script.status).toBe(200);
    expect(script.text.length).toBeGreaterThan(100_000);
  });

  it("an unknown route is a 404 problem", async () => {
    const res = await api("GET", "/api/nowhere");
    expect(res.status).toBe(401);
    const open = await api("GET", "/nowhere");
    expect(open.status).toBe(404);
    expect(open.headers.get("Content-Type")).toContain("application/problem+json");
    expect(open.body).toMatchObject({ status: 404, title: "Record Not Found", code: "ROUTE_NOT_FOUND" });
  });
});
