import { shifts } from "@db/schema";

/** A shift's columns as pay reads them (pay, attendance and the projection alike). */
export const payShiftColumns = {
  id: shifts.id,
  employeeId: shifts.employeeId,
  locationId: shifts.locationId,
  businessDate: shifts.businessDate,
  startAt: shifts.startAt,
  endAt: shifts.endAt,
  utcOffset: shifts.utcOffset,
  hourlyWage: shifts.hourlyWage,
  breaks: shifts.breaksJson,
};
