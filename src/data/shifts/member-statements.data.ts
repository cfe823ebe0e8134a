import { shifts } from "@db/schema";
import { and, eq, isNull } from "drizzle-orm";
import type { Placeholders } from "@/data/prepared";
import { inOrganization } from "@/data/tenancy";

/*
 * What the punch read and the shift-state read share: a staff member's placeholders and the member's open shift
 * (the location's row is data/live-location's).
 */

export type Member = Placeholders<{ organizationId: string; staffMemberId: string }>;

/** The member's open shift (at most one: the one-open-shift index). */
export const openShiftOf = (p: Member) =>
  and(inOrganization(shifts, p.organizationId), eq(shifts.employeeId, p.staffMemberId), isNull(shifts.endAt));
