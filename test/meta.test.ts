import { describe, expect, it } from "vitest";
import { api } from "./helpers/api";

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
  });

  it("GET /api/docs renders the reference from this Worker's own script", async () => {
    const res = await api("GET", "/api/docs");
    expect(res.status).toBe(200);
    expect(res.text).toContain('src="/api/docs/scalar.js"');
    expect(res.text).not.toMatch(/https?:\/\/(cdn|fonts)\./);
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
