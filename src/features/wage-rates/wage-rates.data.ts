import { locations, roles, staffMembers, wageRates } from "@db/schema";
import { and, eq, isNull, type SQL } from "drizzle-orm";
import type { Database } from "@/data/client";
import { organizationNow } from "@/data/clock";
import { ratesEffectiveBy } from "@/data/wage-rates.data";
import { guarded } from "@/data/write/constraint-problems";
import { type ResolvedWage, resolveWage, type WageRateRow } from "@/domain/wage-rate";
import { insertRecord, updateLive, type WriteContext } from "@/platform/crud/tenant-queries";
import { notFound } from "@/problems/problem";
import { reratedUnfrozen, rerateShifts } from "./shift-rerating.data";
import { insertUnfrozen, rateTaken, updateUnfrozen } from "./wage-rates.guards";

type Row = typeof wageRates.$inferSelect;

export interface RateReferences {
  employeeId: string;
  roleId?: string | null;
  locationId?: string | null;
}

const live = <T extends typeof staffMembers | typeof roles | typeof locations>(table: T, organizationId: string, id: string) =>
  and(eq(table.organizationId, organizationId), eq(table.id, id), isNull(table.deletedAt));

/** The staff member, role and location a rate names, in one read: each missing one is its 404. */
export async function assertReferences(db: Database, organizationId: string, refs: RateReferences) {
  const [staff, role, location] = await db.batch([
    db
      .select({ id: staffMembers.id })
      .from(staffMembers)
      .where(live(staffMembers, organizationId, refs.employeeId)),
    db
      .select({ id: roles.id })
      .from(roles)
      .where(live(roles, organizationId, refs.roleId ?? "")),
    db
      .select({ id: locations.id })
      .from(locations)
      .where(live(locations, organizationId, refs.locationId ?? "")),
  ]);
  if (!staff[0]) throw notFound("Staff member");
  if (refs.roleId && !role[0]) throw notFound("Role");
  if (refs.locationId && !location[0]) throw notFound("Location");
}

export async function createRate(
  c: WriteContext,
  organizationId: string,
  body: RateReferences & { hourlyRate: number; effectiveFrom: string },
): Promise<Row> {
  const { db } = c.var;
  const now = await organizationNow({ ...c.var, organizationId });
  const values = {
    employeeId: insertUnfrozen.sql(body.employeeId, organizationId, body.effectiveFrom) as unknown as string,
    roleId: body.roleId ?? null,
    locationId: body.locationId ?? null,
    hourlyRate: body.hourlyRate,
    effectiveFrom: body.effectiveFrom,
  };
  const rerate = (rateId: string) => ({
    after: [],
    events: [],
    trailing: rerateShifts(db, c.var.principal, now, { organizationId, rateId }),
  });
  return guarded(insertRecord(c, wageRates, organizationId, values, "wage_rate.created", rerate), [
    insertUnfrozen.about({ db, organizationId, dates: [body.effectiveFrom] }),
    rateTaken,
    reratedUnfrozen.about({ db, organizationId, dates: [body.effectiveFrom] }),
  ]);
}

/** A rate's PATCH or soft delete, refused while a closed period froze its stored effectiveFrom or the new one. */
export async function changeRate(
  c: WriteContext,
  organizationId: string,
  rateId: string,
  changes: { hourlyRate?: number; effectiveFrom?: string; active?: boolean; deletedAt?: Date },
  event: "wage_rate.updated" | "wage_rate.deleted",
): Promise<Row> {
  const { db } = c.var;
  const now = await organizationNow({ ...c.var, organizationId });
  const values = { ...changes, organizationId: updateUnfrozen.sql(organizationId, changes.effectiveFrom) as unknown as string };
  const dates = changes.effectiveFrom ? [changes.effectiveFrom] : [];
  const rerate = () => ({ before: [], events: [], trailing: rerateShifts(db, c.var.principal, now, { organizationId, rateId }) });
  return guarded(updateLive(c, wageRates, organizationId, rateId, values, "Wage rate", event, rerate), [
    updateUnfrozen.about({ db, organizationId, dates, rateId }),
    rateTaken,
    reratedUnfrozen.about({ db, organizationId, dates, rateId }),
  ]);
}

/** GET …/wage-rates/resolve: the staff member's, role's and rates' reads in one batch, then the pure rule. */
export async function resolveFor(
  db: Database,
  organizationId: string,
  query: { employeeId: string; roleId?: string; locationId?: string; date: string },
): Promise<ResolvedWage> {
  const [staff, role, rates] = await db.batch([
    db
      .select({ hourlyWage: staffMembers.hourlyWage })
      .from(staffMembers)
      .where(live(staffMembers, organizationId, query.employeeId)),
    db
      .select({ hourlyWage: roles.hourlyWage })
      .from(roles)
      .where(live(roles, organizationId, query.roleId ?? "")),
    ratesEffectiveBy(db, organizationId, query.employeeId, query.date),
  ]);
  if (!staff[0]) throw notFound("Staff member");
  if (query.roleId && !role[0]) throw notFound("Role");
  return resolveWage(
    rates as WageRateRow[],
    { roleId: query.roleId ?? null, locationId: query.locationId ?? null, date: query.date },
    role[0],
    staff[0],
  );
}

/** The organization's wage rates, as the crud helpers (platform/crud) list and read them. */
export const wageRateRecords = wageRates;

/** The rates of one staff member (a list's filter). */
export const ratesOf = (employeeId: string) => eq(wageRates.employeeId, employeeId);

/** The rate `id`, and only the caller's own when they act without EMPLOYEE_WRITE. */
export const rateMatch = (id: string, ownStaffMemberId: string | null): SQL =>
  and(eq(wageRates.id, id), ownStaffMemberId === null ? undefined : ratesOf(ownStaffMemberId))!;
