// The principal guard that opens every write batch of ours (src/lib/principal-guard.ts), as drizzle sends it, and its
// bound values. The baseline authorises nothing: it reads the claims of the request's token without verifying them,
// only to bind the same values, so D1 runs the same statement on both sides.

const OK_ORGANIZATION = `EXISTS (SELECT 1 FROM organizations
    WHERE id = ? AND partner_id = ? AND deleted_at IS NULL)`;

/** The organization is not frozen for a move between shards. */
const SETTLED = `(SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM "organization_freezes" WHERE "organization_freezes"."organization_id" = ?))`;

/** A staff member's token: [1, org, partner, staff member, org, access role, access role, permissions version, 1, org]. */
export const STAFF_WRITE_GUARD = `insert into "write_guards" ("id", "ok", "precondition", "settled") values (?, (SELECT 1 WHERE ${OK_ORGANIZATION} AND EXISTS (SELECT 1 FROM staff_members
      WHERE id = ? AND organization_id = ? AND deleted_at IS NULL AND active = 1
        AND access_role_id = ?)
    AND (SELECT permissions_version FROM access_roles WHERE id = ? AND deleted_at IS NULL) IS ?), ?, ${SETTLED}) on conflict do nothing`;

/** An organization's token: [1, org, partner, 1, org]. */
export const ORGANIZATION_WRITE_GUARD = `insert into "write_guards" ("id", "ok", "precondition", "settled") values (?, (SELECT 1 WHERE ${OK_ORGANIZATION}), ?, ${SETTLED}) on conflict do nothing`;

/** The unverified claims of a bearer token (a JWT: its payload is base64url JSON). */
export function claimsOfToken(token) {
  try {
    return JSON.parse(atob((token.split(".")[1] ?? "").replaceAll("-", "+").replaceAll("_", "/")));
  } catch {
    return {};
  }
}

/** The guard statement and its values for a token, as ours binds them. */
export function writeGuardFor(token) {
  const c = claimsOfToken(token);
  return c.emp == null
    ? { sql: ORGANIZATION_WRITE_GUARD, params: [1, c.org, c.pid, 1, c.org] }
    : { sql: STAFF_WRITE_GUARD, params: [1, c.org, c.pid, c.emp, c.org, c.ar, c.ar, c.arv, 1, c.org] };
}

/** The same for the request's Authorization header. */
export const writeGuard = (request) => writeGuardFor((request.headers.get("authorization") ?? "").replace(/^Bearer\s+/i, ""));
