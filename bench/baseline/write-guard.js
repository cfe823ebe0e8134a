// The principal guard that opens every write batch of ours (src/data/write/guarded-batch.ts), as this run recorded it
// (recording.js), and its bound values. The baseline authorises nothing: it reads the claims of the request's token
// without verifying them, only to bind the same values, so D1 runs the same statement on both sides.

import { fromRecording } from "./recording.js";

/**
 * A staff member's token: [1, org, partner, staff member, org, access role, access role, permissions version, then
 * precondition's default 1, the organization written (settled), working_time's default 1].
 */
export let STAFF_WRITE_GUARD;
/** An organization's token: [1, org, partner, 1 (precondition), org (settled), 1 (working_time)]. */
export let ORGANIZATION_WRITE_GUARD;

// Whichever write batches of ours the run recorded: each opens with the guard of its token's kind.
fromRecording([], (recording) => {
  for (const sql of Object.values(recording).flat(2)) {
    if (!/^insert into "write_guards"/i.test(sql)) continue;
    if (/staff_members/.test(sql)) STAFF_WRITE_GUARD = sql;
    else ORGANIZATION_WRITE_GUARD = sql;
  }
});

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
  // `actor`: the audit entry's actor type and id (src/domain/audit.ts actorOf).
  return c.emp == null
    ? { sql: ORGANIZATION_WRITE_GUARD, params: [1, c.org, c.pid, 1, c.org, 1], actor: ["PARTNER", c.pid] }
    : {
        sql: STAFF_WRITE_GUARD,
        params: [1, c.org, c.pid, c.emp, c.org, c.ar, c.ar, c.arv, 1, c.org, 1],
        actor: ["STAFF_MEMBER", c.emp],
      };
}

/** The same for the request's Authorization header. */
export const writeGuard = (request) => writeGuardFor((request.headers.get("authorization") ?? "").replace(/^Bearer\s+/i, ""));
