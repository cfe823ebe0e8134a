import { describe, expect, it } from "vitest";
import { api } from "../helpers/api";
import { unique } from "../helpers/fixtures";
import { sampleLocation } from "../helpers/locations";
import { connectMcp } from "../helpers/mcp";
import { type PartnerClaimsInput, partnerToken } from "../helpers/tokens";
import { HERE } from "../helpers/workplace";

// This project's bindings (vitest.config.ts): api 5, punches 8, exchange 3, enroll 3, mcp 4 requests per 60 s.
const LIMITS = { api: 5, punches: 8, exchange: 3, enroll: 3, mcp: 4 };
const TIMEOUT = 30_000;

let lastOctet = 0;
/** A client address of its own per call, so each test starts with a fresh exchange bucket. */
const freshIp = () => `198.51.100.${++lastOctet}`;

/** The binding's windows are aligned to the clock: start where the whole test fits in one. */
async function freshWindow(seconds = 10) {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < seconds * 1000) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

const exchange = (claims: PartnerClaimsInput, ip: string) =>
  partnerToken(claims).then((token) => api("POST", "/api/auth/exchangeToken", { body: { token }, headers: { "CF-Connecting-IP": ip } }));

async function organization() {
  const ip = freshIp();
  const partner = (await exchange({}, ip)).body.accessToken as string;
  const org = await api("POST", "/api/organizations/with-defaults", { token: partner, body: { name: unique("Org") } });
  expect(org.status).toBe(201);
  const admin = (await exchange({ organizationId: org.body.id }, ip)).body.accessToken as string;
  return { id: org.body.id as string, roleId: org.body.defaults.roles[0].id as string, admin };
}

function expectRateLimited(res: Awaited<ReturnType<typeof api>>, policy: keyof typeof LIMITS) {
  expect(res.status).toBe(429);
  expect(res.headers.get("content-type")).toBe("application/problem+json");
  expect(res.body).toMatchObject({ status: 429, title: "Too Many Requests", code: "RATE_LIMITED" });
  const wait = Number(res.headers.get("retry-after"));
  expect(Number.isInteger(wait) && wait >= 1 && wait <= 60).toBe(true);
  expect(res.headers.get("ratelimit-policy")).toBe(`"${policy}";q=${LIMITS[policy]};w=60`);
  expect(res.headers.get("ratelimit")).toBe(`"${policy}";r=0;t=${wait}`);
}

describe("rate limits", () => {
  it("GET /organizations/{id} beyond the token's limit answers 429 RATE_LIMITED; another token is unaffected", {
    timeout: TIMEOUT,
  }, async () => {
    await freshWindow();
    const [mine, theirs] = [await organization(), await organization()];
    for (let i = 0; i < LIMITS.api; i++) {
      const res = await api("GET", `/api/organizations/${mine.id}`, { token: mine.admin });
      expect(res.status).toBe(200);
      expect(res.headers.get("ratelimit-policy")).toBe(`"api";q=${LIMITS.api};w=60`);
    }
    expectRateLimited(await api("GET", `/api/organizations/${mine.id}`, { token: mine.admin }), "api");
    expectRateLimited(await api("PATCH", `/api/organizations/${mine.id}`, { token: mine.admin, body: { name: "x" } }), "api");
    expect((await api("GET", `/api/organizations/${theirs.id}`, { token: theirs.admin })).status).toBe(200);
  });

  it("punches have their own bucket: a token out of API requests still punches, until the punch limit", { timeout: TIMEOUT }, async () => {
    await freshWindow();
    const org = await organization();
    const location = await api("POST", `/api/organizations/${org.id}/locations`, { token: org.admin, body: sampleLocation() });
    const staff = await api("POST", `/api/organizations/${org.id}/staffmembers`, {
      token: org.admin,
      body: { name: unique("Staff"), locationIds: [location.body.id] },
    });
    for (let i = 2; i < LIMITS.api; i++) expect((await api("GET", `/api/organizations/${org.id}`, { token: org.admin })).status).toBe(200);
    expectRateLimited(await api("GET", `/api/organizations/${org.id}`, { token: org.admin }), "api");

    const punchPath = `/api/organizations/${org.id}/staffmembers/${staff.body.id}/locations/${location.body.id}`;
    const clockIn = () => api("POST", `${punchPath}/clock-in`, { token: org.admin, body: { ...HERE, roleId: org.roleId } });
    const first = await clockIn();
    expect(first.status).toBe(200);
    expect(first.headers.get("ratelimit-policy")).toBe(`"punches";q=${LIMITS.punches};w=60`);
    // Refused punches count as well: a phone retrying in a loop is what this bucket stops.
    for (let i = 1; i < LIMITS.punches; i++) expect((await clockIn()).status).toBe(409);
    expectRateLimited(await clockIn(), "punches");
    expectRateLimited(await api("POST", `${punchPath}/clock-out`, { token: org.admin, body: HERE }), "punches");
  });

  it("POST /auth/exchangeToken beyond the per-address limit answers 429; another address is unaffected", { timeout: TIMEOUT }, async () => {
    await freshWindow();
    const ip = freshIp();
    for (let i = 0; i < LIMITS.exchange; i++) {
      const res = await exchange({}, ip);
      expect(res.status).toBe(200);
      expect(res.headers.get("ratelimit-policy")).toBe(`"exchange";q=${LIMITS.exchange};w=60`);
    }
    expectRateLimited(await exchange({}, ip), "exchange");
    expect((await exchange({}, freshIp())).status).toBe(200);
  });

  it("POST /devices/enroll beyond the per-address limit answers 429, wrong codes counted; another address enrolls", {
    timeout: TIMEOUT,
  }, async () => {
    await freshWindow();
    const org = await organization();
    const location = await api("POST", `/api/organizations/${org.id}/locations`, { token: org.admin, body: sampleLocation() });
    const device = await api("POST", `/api/organizations/${org.id}/locations/${location.body.id}/devices`, {
      token: org.admin,
      body: { name: "Front door" },
    });
    expect(device.status, device.text).toBe(201);
    const enroll = (enrollmentCode: string, ip: string) =>
      api("POST", "/api/devices/enroll", { body: { enrollmentCode }, headers: { "CF-Connecting-IP": ip } });
    const guesser = freshIp();
    for (let i = 0; i < LIMITS.enroll; i++) {
      const res = await enroll(`GUESS00${i}`, guesser);
      expect(res.status, res.text).toBe(400);
      expect(res.body.code).toBe("ENROLLMENT_CODE_INVALID");
      expect(res.headers.get("ratelimit-policy")).toBe(`"enroll";q=${LIMITS.enroll};w=60`);
    }
    // The right code too is refused from that address until the window ends: the guesser learns nothing more.
    expectRateLimited(await enroll(device.body.enrollmentCode, guesser), "enroll");
    const enrolled = await enroll(device.body.enrollmentCode, freshIp());
    expect(enrolled.status, enrolled.text).toBe(200);
  });

  it("a request without a valid token is refused with 401 and consumes no token's bucket", { timeout: TIMEOUT }, async () => {
    await freshWindow();
    const org = await organization();
    for (let i = 0; i < LIMITS.api * 2; i++) {
      expect((await api("GET", `/api/organizations/${org.id}`, { token: `${org.admin}x` })).status).toBe(401);
    }
    expect((await api("GET", `/api/organizations/${org.id}`, { token: org.admin })).status).toBe(200);
  });

  it("/mcp has its own bucket per token: beyond it, HTTP 429 RATE_LIMITED with Retry-After, also to the MCP SDK's client", {
    timeout: TIMEOUT,
  }, async () => {
    await freshWindow();
    const [mine, theirs] = [await organization(), await organization()];
    const list = (token: string) =>
      api("POST", "/mcp", {
        token,
        headers: { Accept: "application/json, text/event-stream" },
        body: { jsonrpc: "2.0", id: 1, method: "tools/list" },
      });
    for (let i = 0; i < LIMITS.mcp; i++) {
      const res = await list(mine.admin);
      expect(res.status).toBe(200);
      expect(res.headers.get("ratelimit-policy")).toBe(`"mcp";q=${LIMITS.mcp};w=60`);
    }
    expectRateLimited(await list(mine.admin), "mcp");
    await expect(connectMcp(mine.admin)).rejects.toMatchObject({ code: 429 });
    // The API's own bucket is another: the token still reads through /api.
    expect((await api("GET", `/api/organizations/${mine.id}`, { token: mine.admin })).status).toBe(200);
    expect((await list(theirs.admin)).status).toBe(200);
  });
});
