import type { Principal } from "./permissions";

/**
 * Where a shift event came from: a staff member's phone (MOBILE), a location's kiosk (KIOSK), a manager's hand
 * (MANUAL), an integrator's backend (API), or the attendance pass closing a forgotten shift (AUTO).
 */
export const PUNCH_SOURCES = ["MOBILE", "KIOSK", "MANUAL", "API", "AUTO"] as const;

export type PunchSource = (typeof PUNCH_SOURCES)[number];

/** Where an event came from, and the kiosk that recorded it (null for every other source). */
export interface PunchOrigin {
  source: PunchSource;
  deviceId: string | null;
}

/**
 * The source of a punch or timesheet write made with an access token: a staff member's token is a person at a
 * phone (a punch: MOBILE) or at a manager's screen (an edit: MANUAL); a token without a staff member is the
 * integrator's backend acting for the organization (API), whatever it writes.
 */
export function originOf(principal: Pick<Principal, "staffMemberId">, write: "punch" | "edit"): PunchOrigin {
  if (principal.staffMemberId === null) return { source: "API", deviceId: null };
  return { source: write === "punch" ? "MOBILE" : "MANUAL", deviceId: null };
}

export const kioskOrigin = (deviceId: string): PunchOrigin => ({ source: "KIOSK", deviceId });

export const AUTO_ORIGIN: PunchOrigin = { source: "AUTO", deviceId: null };

/** Parses a comma-separated `source` filter; answers the unknown names to report, or the sources. */
export function parseSources(text: string): { ok: true; sources: PunchSource[] } | { ok: false; unknown: string[] } {
  const names = text
    .split(",")
    .map((s) => s.trim().toUpperCase())
    .filter((s) => s.length > 0);
  const known = new Set<string>(PUNCH_SOURCES);
  const unknown = names.filter((n) => !known.has(n));
  if (unknown.length > 0 || names.length === 0) return { ok: false, unknown };
  return { ok: true, sources: [...new Set(names)] as PunchSource[] };
}
