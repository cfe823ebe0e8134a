import { clockOffsetOf, shiftedNow } from "@/data/clock";
import type { AppContext } from "./env";

/**
 * The time of the organization the request acts on: the real time for a live organization, a sandbox's test-clock
 * time for a sandbox. An organization token says whether its organization is a sandbox (a sandbox never stops being
 * one), so a live organization's request reads nothing; a sandbox's, or a partner-level token acting on an
 * organization, reads the offset once per request.
 */
export async function requestNow(c: AppContext): Promise<Date> {
  const { principal, scope } = c.var;
  const organizationId = scope?.organizationId ?? principal?.organizationId ?? null;
  if (organizationId === null) return new Date();
  if (principal?.organizationId !== null && principal?.organizationId !== undefined && !principal.sandbox) return new Date();
  if (c.var.clockOffset === undefined) c.set("clockOffset", await clockOffsetOf(c.var.db, organizationId));
  return shiftedNow(c.var.clockOffset ?? 0);
}
