import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { decodeJwt, generateKeyPair, importJWK, type JWK, type JWTPayload, SignJWT, UnsecuredJWT } from "jose";
import { describe, expect, it } from "vitest";
import worker from "@/worker";
import devPartnerKey from "../../../dev/dev-partner.private.jwk.json";
import { api } from "../../helpers/api";
import { createOrganization, unique } from "../../helpers/fixtures";
import { directoryDb, tenantDb } from "../../helpers/shards";
import { DEV_PARTNER, partnerToken } from "../../helpers/tokens";

const now = () => Math.floor(Date.now() / 1000);

/** Signs exactly the claims given (no defaults), so a test can leave any claim out. */
async function signWithDevKey(claims: JWTPayload) {
  return new SignJWT(claims).setProtectedHeader({ alg: "ES256" }).sign(await importJWK(devPartnerKey as JWK, "ES256"));
}

const exchange = (token: unknown) => api("POST", "/api/auth/exchangeToken", { body: { token } });

async function expectRefused(token: string, code: string) {
  const res = await exchange(token);
  expect(res.status).toBe(401);
  expect(res.headers.get("Content-Type")).toContain("application/problem+json");
  expect(res.body).toMatchObject({ status: 401, title: "Unauthorized", code });
  expect(res.body.accessToken).toBeUndefined();
}

async function createStaffMember(organization: { id: string; adminToken: string }) {
  const externalId = unique("emp");
  const res = await api("POST", `/api/organizations/${organization.id}/staffmembers`, {
    token: organization.adminToken,
    body: { name: "Grace Hopper", externalId, accessRoleName: "Employee" },
  });
  if (res.status !== 201) throw new Error(`staff member: ${res.status} ${res.text}`);
  return { id: res.body.id as string, externalId };
}

describe("POST /api/auth/exchangeToken", () => {
  it("exchanges a partner-level token for a bearer token that lists the partner's organizations", async () => {
    const res = await exchange(await partnerToken());
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ tokenType: "Bearer", expiresIn: 3600 });
    const claims = decodeJwt(res.body.accessToken);
    expect(claims).toMatchObject({ pid: DEV_PARTNER, perms: [] });
    expect(claims.org ?? null).toBeNull();
    const organizations = await api("GET", "/api/organizations", { token: res.body.accessToken });
    expect(organizations.status).toBe(200);
    expect(Array.isArray(organizations.body)).toBe(true);
  });

  it("exchanges an organization token for an admin access token lasting at most an hour", async () => {
    const organization = await createOrganization();
    const res = await exchange(await partnerToken({ organizationId: organization.id }));
    expect(res.status).toBe(200);
    const claims = decodeJwt(res.body.accessToken);
    expect(claims.exp! - claims.iat!).toBeLessThanOrEqual(3600);
    expect(claims.exp!).toBeGreaterThan(now());
    expect(claims).toMatchObject({ pid: DEV_PARTNER, org: organization.id, perms: ["ORGANIZATION_ADMIN"] });
    expect(claims.emp ?? null).toBeNull();
    const own = await api("GET", `/api/organizations/${organization.id}`, { token: res.body.accessToken });
    expect(own.status).toBe(200);
  });

  it("gives every access token its own jti, so two exchanged in the same second differ", async () => {
    const [first, second] = await Promise.all([exchange(await partnerToken()), exchange(await partnerToken())]);
    const [a, b] = [decodeJwt(first.body.accessToken), decodeJwt(second.body.accessToken)];
    expect(a.jti).toEqual(expect.any(String));
    expect(a.jti).not.toBe(b.jti);
    expect(first.body.accessToken).not.toBe(second.body.accessToken);
  });

  it("exchanges an employee token named by staff member id", async () => {
    const organization = await createOrganization();
    const member = await createStaffMember(organization);
    const res = await exchange(await partnerToken({ organizationId: organization.id, employeeId: member.id }));
    expect(res.status).toBe(200);
    expect(decodeJwt(res.body.accessToken)).toMatchObject({ pid: DEV_PARTNER, org: organization.id, emp: member.id, perms: [] });
  });

  it("exchanges an employee token named by the partner's external id", async () => {
    const organization = await createOrganization();
    const member = await createStaffMember(organization);
    const res = await exchange(await partnerToken({ organizationId: organization.id, externalEmployeeId: member.externalId }));
    expect(res.status).toBe(200);
    expect(decodeJwt(res.body.accessToken)).toMatchObject({ org: organization.id, emp: member.id, perms: [] });
  });

  it("refuses an unsigned token (alg: none)", async () => {
    const token = new UnsecuredJWT({}).setIssuer(DEV_PARTNER).setIssuedAt().setExpirationTime("5m").encode();
    await expectRefused(token, "TOKEN_ALGORITHM_NOT_ALLOWED");
  });

  it("refuses an HS256 token, even one keyed with the partner's public key", async () => {
    const publicKey = JSON.stringify({ kty: devPartnerKey.kty, crv: devPartnerKey.crv, x: devPartnerKey.x, y: devPartnerKey.y });
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: "HS256" })
      .setIssuer(DEV_PARTNER)
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(new TextEncoder().encode(publicKey));
    await expectRefused(token, "TOKEN_ALGORITHM_NOT_ALLOWED");
  });

  it("refuses a token from an unknown partner", async () => {
    await expectRefused(await partnerToken({}, { iss: "nobody" }), "UNKNOWN_PARTNER");
  });

  it("refuses a token signed by another key", async () => {
    const { privateKey } = await generateKeyPair("ES256");
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: "ES256" })
      .setIssuer(DEV_PARTNER)
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(privateKey);
    await expectRefused(token, "TOKEN_SIGNATURE_INVALID");
  });

  it("refuses an expired token", async () => {
    await expectRefused(
      await signWithDevKey({ iss: DEV_PARTNER, jti: crypto.randomUUID(), iat: now() - 7200, exp: now() - 3600 }),
      "TOKEN_EXPIRED",
    );
  });

  it("refuses a token issued an hour in the future", async () => {
    await expectRefused(
      await signWithDevKey({ iss: DEV_PARTNER, jti: crypto.randomUUID(), iat: now() + 3600, exp: now() + 7200 }),
      "TOKEN_ISSUED_IN_FUTURE",
    );
  });

  it("refuses a token without exp", async () => {
    await expectRefused(await signWithDevKey({ iss: DEV_PARTNER, jti: crypto.randomUUID(), iat: now() }), "TOKEN_CLAIM_MISSING");
  });

  it("refuses a token without iss", async () => {
    await expectRefused(await signWithDevKey({ iat: now(), exp: now() + 300 }), "TOKEN_CLAIM_MISSING");
  });

  it("refuses a token without jti, or with a jti that is not a string of 1 to 255 characters", async () => {
    await expectRefused(await partnerToken({}, { jti: null }), "TOKEN_CLAIM_MISSING");
    await expectRefused(
      await signWithDevKey({ iss: DEV_PARTNER, jti: 42 as unknown as string, iat: now(), exp: now() + 300 }),
      "TOKEN_CLAIM_INVALID",
    );
    await expectRefused(await partnerToken({}, { jti: "x".repeat(256) }), "TOKEN_CLAIM_INVALID");
  });

  it("exchanges each partner token once: a replay is 401 TOKEN_REPLAYED, also when both arrive at once", async () => {
    const organization = await createOrganization();
    const token = await partnerToken({ organizationId: organization.id });
    expect((await exchange(token)).status).toBe(200);
    await expectRefused(token, "TOKEN_REPLAYED");
    const racing = await partnerToken({ organizationId: organization.id });
    const results = await Promise.all([exchange(racing), exchange(racing), exchange(racing)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 401, 401]);
    expect(results.filter((r) => r.status === 401).map((r) => r.body.code)).toEqual(["TOKEN_REPLAYED", "TOKEN_REPLAYED"]);
    // A jti is the partner's own: another token with the same claims and a new jti is exchanged.
    expect((await exchange(await partnerToken({ organizationId: organization.id }))).status).toBe(200);
  });

  it("a refused exchange spends nothing; a jti is recorded in the directory until its token expires, then pruned by the Cron", async () => {
    const organization = await createOrganization();
    const jti = crypto.randomUUID();
    const early = await partnerToken({ organizationId: organization.id, externalEmployeeId: "hired-later" }, { jti });
    await expectRefused(early, "UNKNOWN_EMPLOYEE");
    const use = () =>
      directoryDb().prepare("SELECT expires_at FROM partner_token_uses WHERE jti = ?").bind(jti).first<{ expires_at: number }>();
    expect(await use()).toBeNull();
    expect((await exchange(await partnerToken({ organizationId: organization.id }, { jti, ttl: 120 }))).status).toBe(200);
    // Kept until the token's exp plus the 60 s clock tolerance.
    expect((await use())!.expires_at).toBeGreaterThan(Date.now() + 170_000);
    expect((await use())!.expires_at).toBeLessThanOrEqual(Date.now() + 180_000);
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: new Date(), cron: "*/30 * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect(await use()).not.toBeNull();
    await directoryDb()
      .prepare("UPDATE partner_token_uses SET expires_at = ? WHERE jti = ?")
      .bind(Date.now() - 1000, jti)
      .run();
    const later = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: new Date(), cron: "*/30 * * * *" }), env, later);
    await waitOnExecutionContext(later);
    expect(await use()).toBeNull();
  });

  it("a jti whose earlier token has expired may be used by a new token before the Cron prunes it", async () => {
    const organization = await createOrganization();
    const jti = crypto.randomUUID();
    expect((await exchange(await partnerToken({ organizationId: organization.id }, { jti }))).status).toBe(200);
    await directoryDb()
      .prepare("UPDATE partner_token_uses SET expires_at = ? WHERE jti = ?")
      .bind(Date.now() - 1000, jti)
      .run();
    expect((await exchange(await partnerToken({ organizationId: organization.id }, { jti }))).status).toBe(200);
    await expectRefused(await partnerToken({ organizationId: organization.id }, { jti }), "TOKEN_REPLAYED");
  });

  it("refuses what is not a JWT", async () => {
    await expectRefused("not-a-jwt", "TOKEN_MALFORMED");
    await expectRefused("a.b.c", "TOKEN_MALFORMED");
  });

  it("refuses an unknown organization", async () => {
    await expectRefused(await partnerToken({ organizationId: "0193a5a0-0000-7000-8000-000000000000" }), "UNKNOWN_ORGANIZATION");
  });

  it("refuses another partner's organization as if it did not exist", async () => {
    const id = crypto.randomUUID();
    const at = Date.now();
    await tenantDb()
      .prepare(
        "INSERT INTO organizations (id, partner_id, name, timezone, active, created_at, updated_at) VALUES (?, ?, ?, 'UTC', 1, ?, ?)",
      )
      .bind(id, "other-partner", "Not yours", at, at)
      .run();
    await expectRefused(await partnerToken({ organizationId: id }), "UNKNOWN_ORGANIZATION");
  });

  it("refuses a deleted organization", async () => {
    const organization = await createOrganization();
    const removed = await api("DELETE", `/api/organizations/${organization.id}`, { token: organization.adminToken });
    expect(removed.status).toBe(200);
    await expectRefused(await partnerToken({ organizationId: organization.id }), "UNKNOWN_ORGANIZATION");
  });

  it("refuses an employee claim without an organization", async () => {
    await expectRefused(await partnerToken({ employeeId: "someone" }), "TOKEN_CLAIM_MISSING");
  });

  it("refuses an unknown employee", async () => {
    const organization = await createOrganization();
    await expectRefused(await partnerToken({ organizationId: organization.id, employeeId: "nobody" }), "UNKNOWN_EMPLOYEE");
    await expectRefused(await partnerToken({ organizationId: organization.id, externalEmployeeId: "nobody" }), "UNKNOWN_EMPLOYEE");
  });

  it("refuses a staff member of another organization", async () => {
    const mine = await createOrganization();
    const theirs = await createOrganization();
    const member = await createStaffMember(theirs);
    await expectRefused(await partnerToken({ organizationId: mine.id, employeeId: member.id }), "UNKNOWN_EMPLOYEE");
  });

  it("refuses an inactive or deleted staff member", async () => {
    const organization = await createOrganization();
    const inactive = await createStaffMember(organization);
    const deleted = await createStaffMember(organization);
    await tenantDb().prepare("UPDATE staff_members SET active = 0 WHERE id = ?").bind(inactive.id).run();
    await tenantDb().prepare("UPDATE staff_members SET active = 0, deleted_at = ? WHERE id = ?").bind(Date.now(), deleted.id).run();
    await expectRefused(await partnerToken({ organizationId: organization.id, employeeId: inactive.id }), "UNKNOWN_EMPLOYEE");
    await expectRefused(
      await partnerToken({ organizationId: organization.id, externalEmployeeId: deleted.externalId }),
      "UNKNOWN_EMPLOYEE",
    );
  });

  it("rejects a body without a token with a validation problem", async () => {
    const res = await api("POST", "/api/auth/exchangeToken", { body: {} });
    expect(res.status).toBe(400);
    expect(res.headers.get("Content-Type")).toContain("application/problem+json");
    expect(res.body).toMatchObject({ status: 400, code: "VALIDATION_FAILED" });
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(["token"]);
  });
});

describe("bearer access tokens", () => {
  const accessClaims = { pid: DEV_PARTNER, org: null, emp: null, perms: [] };

  it("GET /api/organizations refuses a missing bearer token", async () => {
    const res = await api("GET", "/api/organizations");
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ status: 401, code: "MISSING_BEARER_TOKEN" });
  });

  it("GET /api/organizations refuses an access token signed with another secret", async () => {
    const forged = await new SignJWT(accessClaims)
      .setProtectedHeader({ alg: "HS256" })
      .setIssuer("shiftline")
      .setAudience("shiftline-api")
      .setIssuedAt()
      .setExpirationTime("1h")
      .sign(new TextEncoder().encode("not-the-secret-of-this-deployment"));
    const res = await api("GET", "/api/organizations", { token: forged });
    expect(res.status).toBe(401);
    expect(res.headers.get("Content-Type")).toContain("application/problem+json");
    expect(res.body).toMatchObject({ status: 401, code: "INVALID_ACCESS_TOKEN" });
  });

  it("GET /api/organizations refuses an expired access token signed with the right secret", async () => {
    const expired = await new SignJWT(accessClaims)
      .setProtectedHeader({ alg: "HS256" })
      .setIssuer("shiftline")
      .setAudience("shiftline-api")
      .setIssuedAt(now() - 7200)
      .setExpirationTime(now() - 3600)
      .sign(new TextEncoder().encode(env.TOKEN_SECRET));
    const res = await api("GET", "/api/organizations", { token: expired });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: "INVALID_ACCESS_TOKEN" });
  });

  it("GET /api/organizations refuses an unsigned access token and a partner token", async () => {
    const unsigned = new UnsecuredJWT(accessClaims).setIssuer("shiftline").setAudience("shiftline-api").setExpirationTime("1h").encode();
    expect((await api("GET", "/api/organizations", { token: unsigned })).body).toMatchObject({ code: "INVALID_ACCESS_TOKEN" });
    const partner = await partnerToken();
    expect((await api("GET", "/api/organizations", { token: partner })).body).toMatchObject({ code: "INVALID_ACCESS_TOKEN" });
  });
});
