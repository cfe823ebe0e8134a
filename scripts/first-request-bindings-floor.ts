// Measurement only (scripts/first-request.mjs --bindings-floor): a frameworkless Worker making the platform calls a
// token exchange makes — the rate limit binding, an ES256 verification, the token use's INSERT on D1, an HS256
// signature — with no framework, validation, drizzle or jose. Its first request shows what the bindings' own first use
// adds under `wrangler dev` (local D1 and the rate limiter run as Workers of their own in the same workerd).
const base64url = (text: string) => Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
const bytes = (text: string) => new TextEncoder().encode(text);

export default {
  async fetch(request: Request, env: Env) {
    const { token } = (await request.json()) as { token: string };
    await env.EXCHANGE_RATE_LIMITER.limit({ key: request.headers.get("cf-connecting-ip") ?? "unknown" });
    const [header = "", payload = "", signature = ""] = token.split(".");
    const claims = JSON.parse(new TextDecoder().decode(base64url(payload))) as { iss: string; jti: string; exp: number };
    const jwk = (JSON.parse(env.PARTNER_KEYS) as Record<string, JsonWebKey>)[claims.iss];
    if (!jwk) return new Response(null, { status: 401 });
    const partnerKey = await crypto.subtle.importKey("jwk", jwk, { name: "ECDSA", namedCurve: "P-256" }, false, ["verify"]);
    const verified = await crypto.subtle.verify(
      { name: "ECDSA", hash: "SHA-256" },
      partnerKey,
      base64url(signature),
      bytes(`${header}.${payload}`),
    );
    if (!verified) return new Response(null, { status: 401 });
    const expires = claims.exp * 1000;
    const { results } = await env.DB.prepare(
      'insert into "partner_token_uses" ("partner_id", "jti", "expires_at") values (?, ?, ?) on conflict ("partner_id", "jti") do update set "expires_at" = ? where "expires_at" <= ? returning "jti"',
    )
      .bind(claims.iss, claims.jti, expires, expires, Date.now())
      .all();
    if (results.length === 0) return new Response(null, { status: 401 });
    const secret = await crypto.subtle.importKey("raw", bytes(env.TOKEN_SECRET), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    const mac = await crypto.subtle.sign("HMAC", secret, bytes(`${header}.${payload}`));
    return Response.json({ accessToken: `${header}.${payload}.${mac.byteLength}`, tokenType: "Bearer", expiresIn: 3600 });
  },
};
export { AccrualWorkflow, BulkWorkflow, PayCloseWorkflow } from "./first-request-workflow-stubs";
