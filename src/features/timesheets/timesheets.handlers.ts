import { decodeKeyCursor, encodeKeyCursor } from "@/data/key-cursor";
import { exportStream } from "@/data/timesheets/timesheet-export.data";
import { type HeaderContext, ifMatchOf, setETag } from "@/platform/http/conditional";
import type { AppRouteHandler } from "@/platform/http/env";
import { linkNext, pageOf } from "@/platform/http/pagination";
import { type ShiftWire, serializeShift } from "@/wire/shift.schemas";
import { lockDayAt, unlockDayAt } from "./locked-days.data";
import { shiftHistory } from "./shift-history.data";
import { serializeShiftVersion } from "./shift-history.schemas";
import { serializeShiftPhoto, shiftPhotos } from "./shift-photos.data";
import { assertLocation, loadShift } from "./shift-references.data";
import { createManualShift, deleteShift, deleteShiftsOfDay, patchShift } from "./shift-writes.data";
import { readTimesheet, timesheetFilter } from "./timesheet-listing.data";
import { readEmployeeReport, readReport, reportFilter } from "./timesheet-reports.data";
import type * as routes from "./timesheets.routes";

export const list: AppRouteHandler<routes.ListRoute> = async (c) => {
  const query = c.req.valid("query");
  const filter = timesheetFilter(c.var.scope, query);
  return c.json(linkNext(c, await readTimesheet(c.var.db, filter, query)), 200);
};

export const listForLocation: AppRouteHandler<routes.ListForLocationRoute> = async (c) => {
  const { id } = c.req.valid("param");
  const query = c.req.valid("query");
  const scope = c.var.scope;
  await assertLocation(c.var.db, scope.organizationId, id);
  const filter = { ...timesheetFilter(scope, query), locationId: id };
  return c.json(linkNext(c, await readTimesheet(c.var.db, filter, query)), 200);
};

export const exportShifts: AppRouteHandler<routes.ExportRoute> = async (c) => {
  const query = c.req.valid("query");
  const filter = timesheetFilter(c.var.scope, query);
  const csv = query.format === "csv";
  const name = `timesheets-${filter.range.start.date}-${filter.range.end.date}.${query.format}`;
  return new Response(exportStream(c.var.db, filter, query.format), {
    status: 200,
    headers: {
      "Content-Type": csv ? "text/csv; charset=utf-8; header=present" : "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="${name}"`,
      "Cache-Control": "no-store",
    },
  });
};

export const reportDays: AppRouteHandler<routes.ReportDaysRoute> = async (c) => {
  const query = c.req.valid("query");
  const filter = { ...reportFilter(c.var.scope, query), dayOffset: query.utcOffset };
  return c.json(linkNext(c, await readReport(c.var.db, filter, query)), 200);
};

export const reportEmployees: AppRouteHandler<routes.ReportEmployeesRoute> = async (c) => {
  const query = c.req.valid("query");
  return c.json(linkNext(c, await readEmployeeReport(c.var.db, reportFilter(c.var.scope, query), query)), 200);
};

export const lockDay: AppRouteHandler<routes.LockDayRoute> = async (c) =>
  c.json(await lockDayAt(c.var.db, c.var.scope, c.req.valid("json")), 200);

export const unlockDay: AppRouteHandler<routes.UnlockDayRoute> = async (c) =>
  c.json(await unlockDayAt(c.var.db, c.var.scope, c.req.valid("query")), 200);

export const getOne: AppRouteHandler<routes.GetOneRoute> = async (c) => {
  const found = await loadShift(c.var.db, c.var.scope, c.req.valid("param").id);
  setETag(c, found.shift);
  return c.json(serializeShift(found.shift, found.breaks, { locked: found.locked, events: found.events }), 200);
};

/** A written shift, with its ETag. */
const written = <S extends ShiftWire>(c: HeaderContext, shift: S) => {
  setETag(c, shift);
  return shift;
};

export const create: AppRouteHandler<routes.CreateRoute> = async (c) =>
  c.json(written(c, await createManualShift(c.var.db, c.var.scope, c.req.valid("json"))), 201);

export const patch: AppRouteHandler<routes.PatchRoute> = async (c) => {
  const shift = await patchShift(c.var.db, c.var.scope, c.req.valid("param").id, c.req.valid("json"), ifMatchOf(c));
  return c.json(written(c, shift), 200);
};

export const remove: AppRouteHandler<routes.RemoveRoute> = async (c) =>
  c.json(written(c, await deleteShift(c.var.db, c.var.scope, c.req.valid("param").id, ifMatchOf(c))), 200);

export const removeDay: AppRouteHandler<routes.RemoveDayRoute> = async (c) =>
  c.json(await deleteShiftsOfDay(c.var.db, c.var.scope, c.req.valid("query")), 200);

export const photos: AppRouteHandler<routes.PhotosRoute> = async (c) => {
  const rows = await shiftPhotos(c.var.db, c.var.scope, c.req.valid("param").id);
  const link = { secret: c.env.PHOTO_URL_SECRET, origin: new URL(c.req.url).origin, now: new Date() };
  return c.json(await Promise.all(rows.map((row) => serializeShiftPhoto(row, link))), 200);
};

export const history: AppRouteHandler<routes.HistoryRoute> = async (c) => {
  const query = c.req.valid("query");
  const after = query.cursor ? Number(decodeKeyCursor(query.cursor, /^([0-9]{1,15})$/)[0]) : 0;
  const rows = await shiftHistory(c.var.db, c.var.scope, c.req.valid("param").id, { after, limit: query.limit });
  const page = pageOf(c, rows, query.limit, (last) => ({ cursor: encodeKeyCursor(last.sequence) }));
  return c.json(page.map(serializeShiftVersion), 200);
};
