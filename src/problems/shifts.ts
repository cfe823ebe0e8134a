import { badRequest, conflict, ProblemError } from "./problem";

/** 409 NO_OPEN_SHIFT, for punches and shift notes alike; `detail` says why when there is more to say. */
export const noOpenShift = (detail = "The staff member has no open shift.") => conflict("NO_OPEN_SHIFT", detail);

export const shiftOpenElsewhere = () => noOpenShift("The staff member's open shift is at another location.");

export const shiftAlreadyOpen = () => conflict("SHIFT_ALREADY_OPEN", "The staff member already has an open shift.");

export const breakAlreadyOpen = (detail = "A break is already open on this shift.") => conflict("BREAK_ALREADY_OPEN", detail);

export const noOpenBreak = () => conflict("NO_OPEN_BREAK", "No break is open on this shift.");

export const breakTypeUnavailable = () =>
  badRequest("BREAK_TYPE_UNAVAILABLE", "typeId: not an enabled break type of this location.", [
    { path: "typeId", message: "not an enabled break type of this location" },
  ]);

export const customFieldsChanged = () =>
  conflict(
    "CUSTOM_FIELDS_CHANGED",
    "The organization's custom fields changed while the shift was written. Nothing was written: read them and retry.",
  );

export const costCodeNotAssigned = () =>
  new ProblemError(
    422,
    "COST_CODE_NOT_ASSIGNED",
    "costCodeId: not an active cost code of the organization assigned to the staff member. Nothing was written.",
    { errors: [{ path: "costCodeId", message: "not an active cost code assigned to the staff member" }] },
  );
