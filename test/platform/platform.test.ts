import { env } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { createApp, MAX_BODY_BYTES } from "@/platform/create-app";
import { api } from "../helpers/api";
import { createOrganization } from "../helpers/fixtures";
import { accessToken } from "../helpers/tokens";

type Response = Awaited<ReturnType<typeof api>>;

function expectProblem(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get("Content-Type")).toContain("application/problem+json");
  expect(res.headers.get("X-Request-Id")).toBeTruthy();
  expect(res.body).toMatchObject({ status, code });
  expect(res.body.type).toMatch(/^https:\/\//);
  for (const field of ["title", "detail", "code"]) {
    expect(typeof res.body[field]).toBe("string");
    expect(res.body[field].length).toBeGreaterThan(0);
  }
}

describe("platform", () => {
  it("malformed JSON is a 400 MALFORMED_JSON problem", async () => {
    expectProblem(await api("POST", "/api/auth/exchangeToken", { body: '{"token": ' }), 400, "MALFORMED_JSON");
    const partner = await accessToken();
    const res = await api("POST", "/api/organizations", { token: partner, body: "{name: 'single quotes'}" });
    expectProblem(res, 400, "MALFORMED_JSON");
    expect(res.body.title).toBe("Bad Request");
  });

  it("NUL and unpaired surrogates in any body or query text are a 400 naming the field, and nothing is written", async () => {
    const org = await createOrganization();
    const roles = `/api/organizations/${org.id}/roles`;
    const before = (await api("GET", roles, { token: org.adminToken })).body.length;
    for (const raw of ['{"name": "Bar\\u0000ista"}', '{"name": "Bar\\ud800ista"}', '{"name": "Barista", "externalId": "\\udc00"}']) {
      const res = await api("POST", roles, { token: org.adminToken, body: raw });
      expectProblem(res, 400, "VALIDATION_FAILED");
      expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual([raw.includes("externalId") ? "externalId" : "name"]);
    }
    for (const query of ["name=%00", "name=%ED%A0%80"]) {
      const res = await api("GET", `/api/organizations/${org.id}/locations?${query}`, { token: org.adminToken });
      expectProblem(res, 400, "VALIDATION_FAILED");
      expect(res.body.errors[0].path).toBe("name");
    }
    expect((await api("GET", roles, { token: org.adminToken })).body.length).toBe(before);
    const deep = `{"name": "Deep", "extra": ${"[".repeat(20_000)}"\\u0000"${"]".repeat(20_000)}}`;
    const refused = await api("POST", roles, { token: org.adminToken, body: deep });
    expectProblem(refused, 400, "VALIDATION_FAILED");
    const emoji = await api("POST", roles, { token: org.adminToken, body: '{"name": "Barista \\ud83d\\ude00"}' });
    expect(emoji.status).toBe(201);
    expect(emoji.body.name).toBe("Barista \u{1F600}");
  });

  it("a text/plain body on a JSON route is a 415 problem", async () => {
    const res = await api("POST", "/api/auth/exchangeToken", {
      body: JSON.stringify({ token: "x" }),
      headers: { "Content-Type": "text/plain" },
    });
    expectProblem(res, 415, "UNSUPPORTED_MEDIA_TYPE");
    const partner = await accessToken();
    const form = await api("POST", "/api/organizations", {
      token: partner,
      body: "name=Acme",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expectProblem(form, 415, "UNSUPPORTED_MEDIA_TYPE");
  });

  it("a JSON body that is not valid UTF-8 is 400 MALFORMED_JSON, never stored with U+FFFD; valid UTF-8 is kept as sent", async () => {
    const org = await createOrganization();
    const roles = `/api/organizations/${org.id}/roles`;
    const before = (await api("GET", roles, { token: org.adminToken })).body.length;
    const post = (bytes: Uint8Array) =>
      exports.default.fetch(
        new Request(`http://shiftline.test${roles}`, {
          method: "POST",
          headers: { Authorization: `Bearer ${org.adminToken}`, "Content-Type": "application/json" },
          body: bytes,
        }),
      );
    const named = (...middle: number[]) =>
      new Uint8Array([...new TextEncoder().encode('{"name": "Bar'), ...middle, ...new TextEncoder().encode('ista"}')]);
    // A stray byte, an overlong "/", an encoded surrogate, a character cut short, a continuation byte alone.
    for (const bytes of [named(0xff), named(0xc0, 0xaf), named(0xed, 0xa0, 0x80), named(0xe2, 0x82), named(0x80)]) {
      const res = await post(bytes);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ status: 400, code: "MALFORMED_JSON" });
    }
    expect((await api("GET", roles, { token: org.adminToken })).body.length).toBe(before);
    const cafe = await post(named(0x20, 0x63, 0x61, 0x66, 0xc3, 0xa9));
    expect(cafe.status).toBe(201);
    // " café" as UTF-8 (é is C3 A9) between "Bar" and "ista".
    expect(((await cafe.json()) as { name: string }).name).toBe("Bar caféista");
  });

  it("a JSON body declared in anything but UTF-8 JSON is 415; charset=utf-8 and +json types are taken", async () => {
    const org = await createOrganization();
    const roles = `/api/organizations/${org.id}/roles`;
    const before = (await api("GET", roles, { token: org.adminToken })).body.length;
    const post = (contentType: string) =>
      api("POST", roles, { token: org.adminToken, body: { name: `Role ${contentType}` }, headers: { "Content-Type": contentType } });
    for (const contentType of [
      "application/json; charset=utf-16",
      "application/json; charset=iso-8859-1",
      "application/json; version=2",
      "text/json",
      "application/jsonx",
    ]) {
      const res = await post(contentType);
      expect(res.status, contentType).toBe(415);
      expect(res.body.code).toBe("UNSUPPORTED_MEDIA_TYPE");
    }
    expect((await api("GET", roles, { token: org.adminToken })).body.length).toBe(before);
    for (const contentType of ["application/json", "application/json; charset=UTF-8", "application/merge-patch+json"]) {
      expect((await post(contentType)).status, contentType).toBe(201);
    }
  });

  it("a body over 256 KiB is a 413 problem", async () => {
    const body = JSON.stringify({ token: "x".repeat(MAX_BODY_BYTES) });
    expectProblem(await api("POST", "/api/auth/exchangeToken", { body }), 413, "PAYLOAD_TOO_LARGE");
    const partner = await accessToken();
    const big = await api("POST", "/api/organizations", { token: partner, body: { name: "y".repeat(MAX_BODY_BYTES + 1) } });
    expectProblem(big, 413, "PAYLOAD_TOO_LARGE");
  });

  it("a percent-encoded path is served by the feature its routing path names (the mount is looked up on hono's path)", async () => {
    const org = await createOrganization();
    const plain = await api("GET", `/api/organizations/${org.id}/roles`, { token: org.adminToken });
    const encoded = await api("GET", `/api/organizations/${org.id}/r%6Fles`, { token: org.adminToken });
    expect(plain.status).toBe(200);
    expect(encoded.status).toBe(200);
    expect(encoded.body).toEqual(plain.body);
  });

  it("an unknown route is a 404 problem, with or without the /api prefix", async () => {
    const partner = await accessToken();
    const res = await api("GET", "/api/nowhere", { token: partner });
    expectProblem(res, 404, "ROUTE_NOT_FOUND");
    expect(res.body.title).toBe("Record Not Found");
    expectProblem(await api("GET", "/nowhere"), 404, "ROUTE_NOT_FOUND");
  });

  it("every response carries X-Request-Id, and a caller's own id is echoed", async () => {
    const responses = [
      await api("GET", "/api/health"),
      await api("GET", "/api/openapi.json"),
      await api("GET", "/api/organizations"),
      await api("POST", "/api/auth/exchangeToken", { body: {} }),
      await api("GET", "/nowhere"),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 200, 401, 400, 404]);
    for (const res of responses) expect(res.headers.get("X-Request-Id")).toMatch(/^[\w-]{8,}$/);
    const ids = new Set(responses.map((r) => r.headers.get("X-Request-Id")));
    expect(ids.size).toBe(responses.length);
    const echoed = await api("GET", "/api/health", { headers: { "X-Request-Id": "client-trace-42" } });
    expect(echoed.headers.get("X-Request-Id")).toBe("client-trace-42");
  });

  it("an unexpected error is a 500 problem with the request id and no stack trace", async () => {
    // A throwaway app from the same factory: the production app has no route that fails on purpose.
    const app = createApp();
    app.get("/api/boom", () => {
      throw new TypeError("secret internals at handler (src/boom.ts:1:1)");
    });
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const response = await app.request("/api/boom", {}, env);
    const text = await response.text();
    const logged = log.mock.calls.flat().join("\n");
    log.mockRestore();
    expect(response.status).toBe(500);
    expect(response.headers.get("Content-Type")).toContain("application/problem+json");
    const requestId = response.headers.get("X-Request-Id");
    expect(requestId).toBeTruthy();
    const body = JSON.parse(text);
    expect(body).toMatchObject({ status: 500, title: "Internal Server Error", code: "INTERNAL_ERROR", requestId });
    expect(text).not.toMatch(/secret internals|stack|\.ts:\d+|TypeError/);
    // The stack goes to the Worker's log instead, under the same request id.
    expect(logged).toContain(requestId);
    expect(logged).toContain("secret internals");
  });
});
