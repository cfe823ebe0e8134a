import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createDatabase, type Statement } from "@/data/client";
import { customFieldsAsRead } from "@/data/shifts/custom-field-values.data";
import { builtClockInWrites, builtClockOutWrites, clockInWrites, clockOutWrites } from "@/features/time-tracking/punch-writes.data";
import type { ShiftEventRow, ShiftRow } from "@/wire/shift.schemas";

// The commonest clock-in and clock-out are prepared once per isolate (time-tracking/punch-writes.data): each must send
// exactly what the statements drizzle builds per request send, guards and all (the punch tests exercise the guards).

const db = createDatabase(env.DB);
const at = new Date("2026-11-26T09:00:00.000Z");

const shift: ShiftRow = {
  id: "0193a5a0-7c1e-7b2a-9d4e-000000000001",
  organizationId: "0193a5a0-7c1e-7b2a-9d4e-000000000002",
  employeeId: "0193a5a0-7c1e-7b2a-9d4e-000000000003",
  locationId: "0193a5a0-7c1e-7b2a-9d4e-000000000004",
  roleId: "0193a5a0-7c1e-7b2a-9d4e-000000000005",
  startAt: at,
  endAt: null,
  utcOffset: -300,
  businessDate: "2026-11-26",
  hourlyWage: 18.5,
  salaried: false,
  wageRateId: null,
  wageSource: "RESOLVED",
  duration: 0,
  totalPaidBreaks: 0,
  totalUnpaidBreaks: 0,
  payableDuration: 0,
  flags: ["IP_FAR"],
  costCodeId: null,
  customFields: { field: "AB-1" },
  manualEntry: false,
  clockInSource: "MOBILE",
  clockInDeviceId: null,
  clockOutSource: null,
  clockOutDeviceId: null,
  breaksJson: [],
  active: true,
  createdAt: at,
  updatedAt: at,
  deletedAt: null,
};

const event = (kind: ShiftEventRow["kind"], occurredAt: Date): ShiftEventRow => ({
  id: `0193a5a0-7c1e-7b2a-9d4e-00000000010${kind.length}`,
  organizationId: shift.organizationId,
  shiftId: shift.id,
  employeeId: shift.employeeId,
  kind,
  breakId: "",
  occurredAt,
  receivedAt: occurredAt,
  latitude: 40.7,
  longitude: -74,
  accuracyCentimeters: 500,
  distanceCentimeters: null,
  verdict: "inside",
  flags: [],
  idempotencyKey: null,
  source: "MOBILE",
  deviceId: null,
  photoId: null,
});

const end = new Date(at.getTime() + 8 * 3_600_000);
const closing = {
  changes: {
    duration: 480,
    totalPaidBreaks: 0,
    totalUnpaidBreaks: 0,
    payableDuration: 480,
    endAt: end,
    active: false,
    clockOutSource: "MOBILE" as const,
    clockOutDeviceId: null,
    flags: ["IP_FAR" as const],
    updatedAt: end,
    customFields: { field: "AB-2" },
  },
  breaks: [],
  ended: undefined,
  events: [event("clock_out", end)],
};

const sent = (statements: Statement[]) => statements.map((s) => (s as unknown as { toSQL(): unknown }).toSQL());
/** A prepared statement is bound to its template (a plain object, data/raw-statement's batchItem); drizzle's are builders. */
const preparedOnes = (statements: Statement[]) => statements.filter((s) => Object.getPrototypeOf(s) === Object.prototype).length;

describe("the prepared punch writes", () => {
  it("clock-in sends the built statements' SQL and values", () => {
    const writes = clockInWrites(db, shift, event("clock_in", at));
    expect(preparedOnes(writes)).toBe(2);
    expect(sent(writes)).toEqual(sent(builtClockInWrites(db, shift, event("clock_in", at))));
  });

  it("clock-out sends the built statements' SQL and values, guards included (the custom fields' too)", () => {
    // A clock-out always checks the custom fields (every required one needs a value): its column is their guard.
    const fields = { values: closing.changes.customFields, fingerprint: "2:1764147600000" };
    const guardedFields = customFieldsAsRead.sql(JSON.stringify(fields.values), shift.organizationId, fields.fingerprint);
    const built = { ...closing, changes: { ...closing.changes, customFields: guardedFields as unknown as Record<string, string> } };
    const writes = clockOutWrites(db, shift, built, fields);
    expect(preparedOnes(writes)).toBe(2);
    expect(sent(writes)).toEqual(sent(builtClockOutWrites(db, shift, built)));
    expect(preparedOnes(clockOutWrites(db, shift, built))).toBe(0);
  });

  it("any other shape is built per request: a photo, a cost code, an open break", () => {
    const photo = { ...event("clock_in", at), photoId: "0193a5a0-7c1e-7b2a-9d4e-000000000009", source: "KIOSK" as const };
    expect(preparedOnes(clockInWrites(db, shift, photo))).toBe(0);
    expect(preparedOnes(clockInWrites(db, { ...shift, costCodeId: "0193a5a0-7c1e-7b2a-9d4e-00000000000a" }, event("clock_in", at)))).toBe(
      0,
    );
    const breakEnd = { ...event("break_end", end), breakId: "0193a5a0-7c1e-7b2a-9d4e-00000000000b" };
    expect(preparedOnes(clockOutWrites(db, shift, { ...closing, events: [...closing.events, breakEnd] }))).toBe(0);
  });
});
