import { noteClockOffset, organizationNow } from "@/data/clock";
import type { AppContext } from "./env";

/**
 * The time of the organization the request acts on (data/clock organizationNow): the real time for a live
 * organization, a sandbox's test-clock time for a sandbox, read at most once per request.
 */
export async function requestNow(c: AppContext): Promise<Date> {
  const { principal, scope } = c.var;
  const organizationId = scope?.organizationId ?? principal?.organizationId ?? null;
  // A device token's row already named its sandbox's offset (auth/device-auth).
  if (principal && organizationId !== null && c.var.clockOffset !== undefined) noteClockOffset(c.var.db, organizationId, c.var.clockOffset);
  return organizationNow({ db: c.var.db, principal, organizationId });
}
