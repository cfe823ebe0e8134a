import { breakTypes, locations, roles, shiftEvents, shifts, staffMembers } from "@db/schema";
import { and, asc, eq, inArray } from "drizzle-orm";
import type { Database } from "@/data/client";
import { breaksOfShift } from "@/data/shifts/break-copies.data";
import { costCodeRead } from "@/data/shifts/cost-code-reads.data";
import { customFieldsOf, customFieldsRead } from "@/data/shifts/custom-field-values.data";
import { inOrganization } from "@/data/tenancy";
import { lockedSql } from "@/data/timesheets/timesheet-query.data";
import { ratesEffectiveBy } from "@/data/wage-rates.data";
import { breakSettingsOf, type ShiftBreak } from "@/domain/shift-totals";
import { type OffsetRule, readWallClock } from "@/domain/zoned-wall-clock";
import { invalidField, notFound } from "@/problems/problem";
import type { TimesheetScope } from "./timesheet-scope.guards";
import type { ManualBreakInput } from "./timesheets.schemas";

type BreakTypeRow = typeof breakTypes.$inferSelect;

/** The records a manual shift names, read in one batch; an unknown one is a 400 naming its field. */
export const unknownCostCode = () => invalidField("costCodeId", "no cost code with that id in this organization");

/** A cost code an edit names: a live code of the organization, else 400 naming costCodeId. */
export async function assertCostCode(db: Database, organizationId: string, costCodeId: string) {
  if (!(await costCodeRead(db, organizationId, costCodeId))[0]) throw unknownCostCode();
}

export async function loadReferences(
  db: Database,
  organizationId: string,
  ids: { employeeId: string; locationId: string; roleId: string; costCodeId?: string },
  /** The latest local date the shift can start on: the staff member's wage rates effective by then are read too. */
  latestDate = "",
) {
  const [staff, location, role, types, rates, code, fields] = await db.batch([
    db
      .select()
      .from(staffMembers)
      .where(and(inOrganization(staffMembers, organizationId), eq(staffMembers.id, ids.employeeId))),
    db
      .select()
      .from(locations)
      .where(and(inOrganization(locations, organizationId), eq(locations.id, ids.locationId))),
    db
      .select()
      .from(roles)
      .where(and(inOrganization(roles, organizationId), eq(roles.id, ids.roleId))),
    db
      .select()
      .from(breakTypes)
      .where(and(inOrganization(breakTypes, organizationId), eq(breakTypes.locationId, ids.locationId))),
    ratesEffectiveBy(db, organizationId, ids.employeeId, latestDate),
    costCodeRead(db, organizationId, ids.costCodeId ?? ""),
    customFieldsRead(db, organizationId),
  ]);
  if (!staff[0]) throw invalidField("employeeId", "no staff member with that id in this organization");
  if (!location[0]) throw invalidField("locationId", "no location with that id in this organization");
  if (!role[0]) throw invalidField("roleId", "no role with that id in this organization");
  if (ids.costCodeId !== undefined && !code[0]) throw unknownCostCode();
  const customFields = customFieldsOf(organizationId, fields);
  return { staff: staff[0], location: location[0], role: role[0], breakTypes: types, wageRates: rates, customFields };
}

/** A shift of the scope with its breaks (its breaks_json copy) and events: another's shift, or a deleted one, is 404. */
export async function loadShift(db: Database, scope: TimesheetScope, id: string) {
  const { organizationId, ownStaffMemberId } = scope;
  const [found, events, types] = await db.batch([
    db
      .select({ shift: shifts, locked: lockedSql() })
      .from(shifts)
      .where(
        and(
          inOrganization(shifts, organizationId),
          eq(shifts.id, id),
          ownStaffMemberId ? eq(shifts.employeeId, ownStaffMemberId) : undefined,
        ),
      ),
    db
      .select()
      .from(shiftEvents)
      .where(and(eq(shiftEvents.organizationId, organizationId), eq(shiftEvents.shiftId, id)))
      .orderBy(asc(shiftEvents.occurredAt)),
    db
      .select()
      .from(breakTypes)
      .where(
        and(
          inOrganization(breakTypes, organizationId),
          inArray(breakTypes.locationId, db.select({ id: shifts.locationId }).from(shifts).where(eq(shifts.id, id))),
        ),
      ),
  ]);
  if (!found[0]) throw notFound("Shift");
  return { shift: found[0].shift, locked: found[0].locked, breaks: breaksOfShift(found[0].shift), events, breakTypes: types };
}

/** A request's breaks as the domain's, read with the shift's offset rule; a typeId must be the location's. */
export function manualBreaks(input: readonly ManualBreakInput[], rule: OffsetRule, types: readonly BreakTypeRow[]): ShiftBreak[] {
  return input.map((b, i) => {
    const startTime = readWallClock(new Date(b.startTime), rule);
    const endTime = readWallClock(new Date(b.endTime), rule);
    if (b.typeId === undefined) {
      const base = { name: b.name ?? "Break", paid: b.paid ?? false, mandatory: false, frequencyMinutes: 0 };
      return { ...base, startTime, endTime, typeId: null, durationInSettingsMinutes: 0 };
    }
    const type = types.find((t) => t.id === b.typeId);
    if (!type) throw invalidField(`breaks.${i}.typeId`, "not a break type of the shift's location");
    return { startTime, endTime, ...breakSettingsOf(type) };
  });
}

/** The live location of the scope's organization (its id only), else 404 LOCATION_NOT_FOUND. */
export async function assertLocation(db: Database, organizationId: string, id: string) {
  const [location] = await db
    .select({ id: locations.id })
    .from(locations)
    .where(and(inOrganization(locations, organizationId), eq(locations.id, id)));
  if (!location) throw notFound("Location");
  return location;
}
