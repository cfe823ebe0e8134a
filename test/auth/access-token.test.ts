import { describe, expect, it } from "vitest";
import { signAccessToken, verifyAccessToken } from "@/auth/access-token";

const SECRET = "test-secret-for-the-access-token-cache";
const principal = { partnerId: "p", organizationId: "o", staffMemberId: "s", permissions: ["SHIFT_READ" as const] };

describe("access token verification, remembered per isolate", () => {
  it("answers the same principal again, and refuses the token once it expires, remembered or not", async () => {
    const token = await signAccessToken(principal, SECRET, 60);
    const now = Date.now();
    expect(await verifyAccessToken(token, SECRET, now)).toEqual(principal);
    expect(await verifyAccessToken(token, SECRET, now + 1000)).toEqual(principal);
    expect(await verifyAccessToken(token, SECRET, now + 61_000)).toBeNull();
    // Forgotten on expiry: verified again, and refused by the signature check's own clock.
    expect(await verifyAccessToken(token, SECRET, now + 62_000)).toBeNull();
  });

  it("does not trust a token verified under another secret, nor a tampered one", async () => {
    const token = await signAccessToken(principal, SECRET, 60);
    expect(await verifyAccessToken(token, SECRET)).not.toBeNull();
    expect(await verifyAccessToken(token, `${SECRET}-rotated`)).toBeNull();
    const [header, payload, signature] = token.split(".");
    const forged = btoa(
      JSON.stringify({ ...JSON.parse(atob(payload!.replaceAll("-", "+").replaceAll("_", "/"))), perms: ["ORGANIZATION_ADMIN"] }),
    )
      .replaceAll("+", "-")
      .replaceAll("/", "_")
      .replace(/=+$/, "");
    expect(await verifyAccessToken(`${header}.${forged}.${signature}`, SECRET)).toBeNull();
  });
});

describe("access token signing", () => {
  const decode = (part: string) => JSON.parse(atob(part.replaceAll("-", "+").replaceAll("_", "/")));

  it("writes an HS256 JWT with the issuer, audience, an id and its lifetime, and the principal's claims", async () => {
    const before = Math.floor(Date.now() / 1000);
    const token = await signAccessToken({ ...principal, scopes: ["pay:read"], apiVersion: "2026-01-01", sandbox: true }, SECRET, 60);
    const [header, payload] = token.split(".");
    expect(decode(header!)).toEqual({ alg: "HS256", typ: "JWT" });
    const claims = decode(payload!);
    expect(claims).toMatchObject({ pid: "p", org: "o", emp: "s", perms: ["SHIFT_READ"], scp: ["pay:read"], ver: "2026-01-01", sbx: true });
    expect(claims).toMatchObject({ iss: "shiftline", aud: "shiftline-api" });
    expect(claims.iat).toBeGreaterThanOrEqual(before);
    expect(claims.exp - claims.iat).toBe(60);
    expect(claims.jti).toMatch(/^[0-9a-f-]{36}$/);
    expect(decode((await signAccessToken(principal, SECRET, 60)).split(".")[1]!).jti).not.toBe(claims.jti);
  });

  it("signs claims of any text: a partner's own ids outside ASCII verify as they were", async () => {
    const named = { ...principal, organizationId: "organización-東京-😀" };
    expect(await verifyAccessToken(await signAccessToken(named, SECRET, 60), SECRET)).toEqual(named);
  });
});
