import { createDatabase } from "@/data/client";
import { newId } from "@/data/ids";
import { fromDomainBreak } from "@/data/shifts/breaks.data";
import { insertBreakStatements, insertShiftStatements } from "@/data/shifts/shift-rows.data";
import { businessDate } from "@/domain/local-time";
import { closeShift } from "@/domain/shift-totals";
import type { TrustFlag } from "@/domain/trust";
import type { ShiftBreakRow, ShiftRow } from "@/wire/shift.schemas";
import { api } from "./api";
import { tenantDb } from "./shards";
import { createStaffMember, staffToken } from "./staff";
import type { Workplace } from "./workplace";

export const timesheets = (w: Workplace, query: Record<string, string | number | boolean | undefined> = {}, token = w.org.adminToken) => {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
  return api("GET", `/api/timesheets?${params}`, { token });
};

/** A manual shift entered by the organization's admin: wall-clock times as the wire writes them. */
export const manualShift = (w: Workplace, body: Record<string, unknown> = {}, token = w.org.adminToken) =>
  api("POST", "/api/timesheets", {
    token,
    body: { employeeId: w.staff.id, locationId: w.location.id, roleId: w.roleId, ...body },
  });

export async function createManual(w: Workplace, body: Record<string, unknown>) {
  const res = await manualShift(w, body);
  if (res.status !== 201) throw new Error(`manual shift: ${res.status} ${res.text}`);
  return res.body;
}

export const lockDay = (w: Workplace, date: string, token = w.org.adminToken) =>
  api("POST", "/api/timesheets/locked-days", { token, body: { date, locationId: w.location.id } });

export const unlockDay = (w: Workplace, date: string, token = w.org.adminToken) =>
  api("DELETE", `/api/timesheets/locked-days?date=${date}&locationId=${w.location.id}`, { token });

export interface SeedShift {
  employeeId: string;
  locationId: string;
  roleId: string;
  /** UTC start. */
  start: Date;
  minutes: number;
  utcOffset: number;
  hourlyWage?: number;
  /** An unpaid break of this many minutes, an hour in. */
  unpaidBreakMinutes?: number;
  flags?: TrustFlag[];
  /** Still clocked in: no end, zero totals. */
  open?: boolean;
  /** The cost code the shift is charged to (none unless told). */
  costCodeId?: string | null;
}

/** Inserts shifts straight into D1 (chunked multi-row inserts under the 100-parameter cap), totals from closeShift. */
export async function seedShifts(organizationId: string, seeds: readonly SeedShift[]) {
  const db = createDatabase(tenantDb());
  const shifts: ShiftRow[] = [];
  const breaks: ShiftBreakRow[] = [];
  for (const s of seeds) {
    const end = new Date(s.start.getTime() + s.minutes * 60_000);
    const id = newId();
    const domainBreaks = s.unpaidBreakMinutes
      ? [
          {
            startTime: new Date(s.start.getTime() + 3_600_000),
            endTime: new Date(s.start.getTime() + 3_600_000 + s.unpaidBreakMinutes * 60_000),
            paid: false,
            typeId: null,
            name: "Lunch",
            mandatory: false,
            frequencyMinutes: 0,
            durationInSettingsMinutes: s.unpaidBreakMinutes,
          },
        ]
      : [];
    const closed = s.open
      ? { breaks: [], totals: { duration: 0, totalPaidBreaks: 0, totalUnpaidBreaks: 0, payableDuration: 0 } }
      : closeShift({ start: s.start, end, breaks: domainBreaks });
    shifts.push({
      id,
      organizationId,
      employeeId: s.employeeId,
      locationId: s.locationId,
      roleId: s.roleId,
      startAt: s.start,
      endAt: s.open ? null : end,
      utcOffset: s.utcOffset,
      businessDate: businessDate(s.start, s.utcOffset),
      hourlyWage: s.hourlyWage ?? 20,
      wageRateId: null,
      // Seeded wages are given, as a manual shift's hourlyWage is.
      wageSource: "SET_BY_HAND",
      salaried: false,
      ...closed.totals,
      flags: s.flags ?? [],
      manualEntry: false,
      clockInSource: "MOBILE",
      clockInDeviceId: null,
      clockOutSource: s.open ? null : "MOBILE",
      clockOutDeviceId: null,
      costCodeId: s.costCodeId ?? null,
      customFields: {},
      breaksJson: [], // filled by the shift_breaks triggers
      active: Boolean(s.open),
      createdAt: s.start,
      updatedAt: s.start,
      deletedAt: null,
    });
    for (const b of closed.breaks) {
      breaks.push(fromDomainBreak({ ...b, typeId: null, automatic: false }, { id: newId(), organizationId, shiftId: id }));
    }
  }
  const statements = [...insertShiftStatements(db, shifts), ...insertBreakStatements(db, breaks)];
  for (const statement of statements) await statement;
  return shifts;
}

/** Every page of a listing, following Link rel="next". */
export async function allPages(path: string, token: string) {
  const pages: { shifts: { id: string }[]; totals: unknown; lockedDays: string[] }[] = [];
  let next: string | null = path;
  while (next) {
    const res = await api("GET", next, { token });
    if (res.status !== 200) throw new Error(`page: ${res.status} ${res.text}`);
    pages.push(res.body);
    next = /<([^>]+)>; rel="next"/.exec(res.headers.get("Link") ?? "")?.[1] ?? null;
  }
  return pages;
}

/** A role of the workplace's organization with a wage. */
export async function createRole(w: Workplace, hourlyWage: number, name = `Role ${hourlyWage}`) {
  const res = await api("POST", `/api/organizations/${w.org.id}/roles`, { token: w.org.adminToken, body: { name, hourlyWage } });
  if (res.status !== 201) throw new Error(`role: ${res.status} ${res.text}`);
  return res.body as { id: string; hourlyWage: number };
}

/** A staff member assigned to the workplace's location whose access role holds exactly these permissions. */
export async function staffWithPermissions(w: Workplace, permissions: string[], body: Record<string, unknown> = {}) {
  const role = await api("POST", `/api/organizations/${w.org.id}/access-roles`, {
    token: w.org.adminToken,
    body: { name: `Perms ${permissions.join("+") || "none"} ${Math.random().toString(36).slice(2, 8)}`, permissions },
  });
  if (role.status !== 201) throw new Error(`access role: ${role.status} ${role.text}`);
  const staff = await createStaffMember(w.org, { locationIds: [w.location.id], accessRoleId: role.body.id, ...body });
  return { id: staff.id, token: await staffToken(w.org, staff.id) };
}

/** Local New York wall clock → UTC instant, for seeding rows at known local times (EST/EDT from the date). */
export const newYork = (local: string) => {
  const naive = Date.parse(`${local}Z`);
  const offset = (instant: number) => {
    const name = new Intl.DateTimeFormat("en-US", { timeZone: "America/New_York", timeZoneName: "longOffset" }).format(instant);
    const m = /GMT([+-])(\d{2}):(\d{2})/.exec(name)!;
    return (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
  };
  const utcOffset = offset(naive - offset(naive) * 60_000);
  return { start: new Date(naive - utcOffset * 60_000), utcOffset };
};

export const ids = (shifts: { id: string }[]) => shifts.map((s) => s.id).sort();
