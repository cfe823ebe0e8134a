import { addDays, businessDate, offsetMinutesAt } from "./local-time";

/** What a seeded sandbox holds: one café, its three staff, and their published week. */
export const SANDBOX_LOCATION = {
  name: "Sandbox Café",
  country: "US",
  city: "New York",
  addressLine1: "1 Broadway",
  zipCode: 10001,
  latitude: "40.748817",
  longitude: "-73.985428",
  clockInDistanceCentimeters: 10_000,
} as const;

export const SANDBOX_STAFF = [
  { name: "Ada Lovelace", email: "ada@sandbox.shiftline.dev", hourlyWage: 22 },
  { name: "Grace Hopper", email: "grace@sandbox.shiftline.dev", hourlyWage: 24 },
  { name: "Alan Turing", email: "alan@sandbox.shiftline.dev", hourlyWage: 20 },
] as const;

/** Each staff member works 09:00–17:00 local on each of the seven days after the sandbox's creation day. */
export const SANDBOX_SHIFT = { startHour: 9, endHour: 17, days: 7 } as const;

const HOUR_MS = 3_600_000;

/** The instant of a local hour on a local date in `timeZone`, and the zone's offset then (minutes east of UTC). */
function localInstant(date: string, hour: number, timeZone: string) {
  const wall = Date.parse(`${date}T00:00:00Z`) + hour * HOUR_MS;
  const offset = offsetMinutesAt(timeZone, new Date(wall));
  return { at: new Date(wall - offset * 60_000), offset };
}

/** The seeded week's shifts: per staff index, its local days from the day after `now` (in `timeZone`). */
export function sandboxWeek(now: Date, timeZone: string) {
  const today = businessDate(now, offsetMinutesAt(timeZone, now));
  return Array.from({ length: SANDBOX_SHIFT.days }, (_, day) => addDays(today, day + 1)).flatMap((date) =>
    SANDBOX_STAFF.map((_, staffIndex) => {
      const start = localInstant(date, SANDBOX_SHIFT.startHour, timeZone);
      const end = localInstant(date, SANDBOX_SHIFT.endHour, timeZone);
      return { staffIndex, date, startAt: start.at, endAt: end.at, utcOffset: start.offset };
    }),
  );
}
