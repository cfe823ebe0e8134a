import { exports } from "cloudflare:workers";
import { createShiftline } from "@shiftline/sdk";
import { describe, expect, it } from "vitest";
import { api } from "../helpers/api";
import { unique } from "../helpers/fixtures";
import { type PartnerClaimsInput, partnerToken } from "../helpers/tokens";

// This project's API limit (vitest.config.ts): 5 requests per 60 s per token.
const API_LIMIT = 5;

/** Exchanges from an address of this file's own: the exchange's bucket (3 a minute per address) is nobody else's. */
const exchange = async (claims: PartnerClaimsInput) => {
  const body = { token: await partnerToken(claims) };
  const res = await api("POST", "/api/auth/exchangeToken", { body, headers: { "CF-Connecting-IP": "198.51.100.250" } });
  expect(res.status).toBe(200);
  return res.body.accessToken as string;
};

async function createOrganization() {
  const org = await api("POST", "/api/organizations/with-defaults", { token: await exchange({}), body: { name: unique("Org") } });
  expect(org.status).toBe(201);
  return { id: org.body.id as string, adminToken: await exchange({ organizationId: org.body.id }) };
}

describe("the SDK against the Worker's real rate limit", () => {
  it("waits the Retry-After of a real 429 before its retry, and answers the 429 once its retries are spent", {
    timeout: 30_000,
  }, async () => {
    // The windows are aligned to the clock: start where the test fits in one.
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 10_000) await new Promise((resolve) => setTimeout(resolve, left + 50));
    const org = await createOrganization();
    for (let i = 0; i < API_LIMIT; i++)
      expect((await api("GET", `/api/organizations/${org.id}`, { token: org.adminToken })).status).toBe(200);
    const waits: number[] = [];
    const answers: { status: number; retryAfter: string | null }[] = [];
    const shiftline = createShiftline({
      baseUrl: "http://shiftline.test",
      token: org.adminToken,
      fetch: async (request) => {
        const response = await exports.default.fetch(request);
        answers.push({ status: response.status, retryAfter: response.headers.get("Retry-After") });
        return response;
      },
      // A recorder instead of a clock: the test does not wait out the window (up to 60 s, so allowed up to 60).
      retry: { retries: 1, maxDelaySeconds: 60, sleep: async (ms) => void waits.push(ms) },
    });
    const answer = await shiftline.GET("/api/organizations/{organization_id}", { params: { path: { organization_id: org.id } } });
    expect([answer.response.status, answer.error?.code]).toEqual([429, "RATE_LIMITED"]);
    expect(answers.map((a) => a.status)).toEqual([429, 429]);
    const named = Number(answers[0]!.retryAfter);
    expect(named).toBeGreaterThanOrEqual(1);
    expect(waits).toEqual([named * 1000]);
  });
});
