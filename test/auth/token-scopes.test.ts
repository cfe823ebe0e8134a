import { describe, expect, it } from "vitest";
import { api } from "../helpers/api";
import { createOrganization } from "../helpers/fixtures";
import { loadDocument, walk } from "../helpers/openapi-walk";
import { accessToken, partnerToken } from "../helpers/tokens";

describe("scoped tokens", () => {
  it("grants what the scopes name and refuses the rest with 403 INSUFFICIENT_SCOPE naming the scope", async () => {
    const org = await createOrganization();
    const token = await accessToken({ organizationId: org.id, scopes: ["timesheets:read"] });
    expect((await api("GET", "/api/timesheets?startDate=2026-01-01&endDate=2026-01-02", { token })).status).toBe(200);
    const write = await api("POST", "/api/timesheets", { token, body: {} });
    expect(write.status).toBe(403);
    expect(write.body).toMatchObject({ code: "INSUFFICIENT_SCOPE", requiredScope: "timesheets:write" });
    expect(write.body.detail).toContain("'timesheets:write'");
    const other = await api("GET", `/api/organizations/${org.id}/locations`, { token });
    expect(other.status).toBe(403);
    expect(other.body).toMatchObject({ code: "INSUFFICIENT_SCOPE", requiredScope: "locations:read" });
  });

  it("lets an area's write scope read it, and *:read read everything but write nothing", async () => {
    const org = await createOrganization();
    const writer = await accessToken({ organizationId: org.id, scopes: "locations:write" });
    expect((await api("GET", `/api/organizations/${org.id}/locations`, { token: writer })).status).toBe(200);
    expect((await api("GET", `/api/organizations/${org.id}/roles`, { token: writer })).body.requiredScope).toBe("staff:read");
    const reader = await accessToken({ organizationId: org.id, scopes: ["*:read"] });
    expect((await api("GET", `/api/organizations/${org.id}/roles`, { token: reader })).status).toBe(200);
    const patch = await api("PATCH", `/api/organizations/${org.id}`, { token: reader, body: { name: "Renamed" } });
    expect(patch.body).toMatchObject({ code: "INSUFFICIENT_SCOPE", requiredScope: "organizations:write" });
    // Nothing changed.
    expect((await api("GET", `/api/organizations/${org.id}`, { token: reader })).body.name).not.toBe("Renamed");
  });

  it("keeps the role's limits under the scopes: a token without scopes is limited by its role alone", async () => {
    const org = await createOrganization();
    const unscoped = await accessToken({ organizationId: org.id });
    expect((await api("PATCH", `/api/organizations/${org.id}`, { token: unscoped, body: { name: "Renamed" } })).status).toBe(200);
  });

  it("refuses an unknown scope at the exchange with 401 TOKEN_CLAIM_INVALID", async () => {
    const org = await createOrganization();
    for (const scopes of [["timesheets:delete"], ["everything"], [3], "pay:read nope"]) {
      const res = await api("POST", "/api/auth/exchangeToken", { body: { token: await partnerToken({ organizationId: org.id, scopes }) } });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe("TOKEN_CLAIM_INVALID");
    }
  });

  it("declares each secured operation's scope in the document (x-required-scope) and its 403 INSUFFICIENT_SCOPE", async () => {
    const document = await loadDocument();
    const secured = walk(document).filter((op) => !op.isPublic);
    expect(secured.length).toBeGreaterThan(100);
    const raw = document.paths as Record<string, Record<string, any>>;
    for (const op of secured) {
      const { operation } = op;
      const scope = operation["x-required-scope"];
      expect(scope, op.name).toMatch(op.method === "GET" ? /^[a-z_]+:read$/ : /^[a-z_]+:write$/);
      expect(operation.responses["403"]["x-problem-codes"], op.name).toContain("INSUFFICIENT_SCOPE");
    }
    expect(raw["/api/timesheets"]!.get["x-required-scope"]).toBe("timesheets:read");
    expect(raw["/api/organizations/{organizationId}/locations/{locationId}/schedules/publish"]!.post["x-required-scope"]).toBe(
      "schedules:write",
    );
    expect(raw["/api/timesheets/pay"]!.get["x-required-scope"]).toBe("pay:read");
  });
});
