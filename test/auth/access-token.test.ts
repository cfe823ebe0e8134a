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
