import { conflict, ProblemError } from "./problem";

export const policyNotAvailable = () =>
  conflict("POLICY_NOT_AVAILABLE", "The policy is not Active, or the staff member is not included in it.");

export const insufficientBalance = (requestedHours: number, availableHours: number) =>
  conflict("INSUFFICIENT_BALANCE", `The request needs ${requestedHours} h; ${availableHours} h are available.`, {
    requestedHours,
    availableHours,
  });

export const timeOffOverlap = () =>
  conflict("TIME_OFF_OVERLAP", "The staff member already has a pending or approved request overlapping these times.");

export const requestNotPending = (status: string) =>
  conflict("REQUEST_NOT_PENDING", `The request is ${status}; only a pending request can be changed this way.`);

export const scheduleConflict = (scheduleEntryIds: string[]) =>
  conflict(
    "SCHEDULE_CONFLICT",
    "The staff member is scheduled (published entries) during this time off: a manager approves with cancelConflictingEntries: true to remove them.",
    { scheduleEntryIds },
  );

export const policyNotActive = () => conflict("POLICY_NOT_ACTIVE", "Only an Active policy can be deactivated.");

export const forbiddenForOthers = () =>
  new ProblemError(403, "FORBIDDEN", "Without the TIMEOFF permission a staff member acts only on their own time off.");
