import { createRouter } from "@/platform/create-app";
import * as openShifts from "./open-shifts.handlers";
import * as openShiftRoutes from "./open-shifts.routes";
import * as schedules from "./schedules.handlers";
import * as scheduleRoutes from "./schedules.routes";
import * as shiftRequests from "./shift-requests.handlers";
import * as shiftRequestRoutes from "./shift-requests.routes";

/** Schedules and open shifts. Fixed paths (drafts, publish, bulk-copy) before /{id}, so an id never shadows them. */
export default createRouter()
  .openapi(scheduleRoutes.listDrafts, schedules.listDrafts)
  .openapi(scheduleRoutes.getDraft, schedules.getDraft)
  .openapi(scheduleRoutes.createDraft, schedules.createDraft)
  .openapi(scheduleRoutes.patchDraft, schedules.patchDraft)
  .openapi(scheduleRoutes.removeDraft, schedules.removeDraft)
  .openapi(scheduleRoutes.publish, schedules.publish)
  .openapi(scheduleRoutes.bulkCopy, schedules.bulkCopy)
  .openapi(scheduleRoutes.eligibility, schedules.eligibility)
  .openapi(scheduleRoutes.list, schedules.list)
  .openapi(scheduleRoutes.getOne, schedules.getOne)
  .openapi(scheduleRoutes.create, schedules.create)
  .openapi(scheduleRoutes.patch, schedules.patch)
  .openapi(scheduleRoutes.remove, schedules.remove)
  .openapi(shiftRequestRoutes.list, shiftRequests.list)
  .openapi(shiftRequestRoutes.create, shiftRequests.create)
  .openapi(shiftRequestRoutes.getOne, shiftRequests.getOne)
  .openapi(shiftRequestRoutes.accept, shiftRequests.accept)
  .openapi(shiftRequestRoutes.approve, shiftRequests.approve)
  .openapi(shiftRequestRoutes.decline, shiftRequests.decline)
  .openapi(shiftRequestRoutes.cancel, shiftRequests.cancel)
  .openapi(openShiftRoutes.list, openShifts.list)
  .openapi(openShiftRoutes.create, openShifts.create)
  .openapi(openShiftRoutes.getOne, openShifts.getOne)
  .openapi(openShiftRoutes.patch, openShifts.patch)
  .openapi(openShiftRoutes.remove, openShifts.remove)
  .openapi(openShiftRoutes.claim, openShifts.claim)
  .openapi(openShiftRoutes.retract, openShifts.retract)
  .openapi(openShiftRoutes.bulkAssign, openShifts.bulkAssign)
  .openapi(openShiftRoutes.createPreference, openShifts.createPreference)
  .openapi(openShiftRoutes.retractPreference, openShifts.retractPreference)
  .openapi(openShiftRoutes.patchPreference, openShifts.patchPreference)
  .openapi(openShiftRoutes.removePreference, openShifts.removePreference)
  .openapi(openShiftRoutes.assign, openShifts.assign);
