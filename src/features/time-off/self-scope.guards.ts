import type { Scope } from "@/domain/scope";
import { forbiddenForOthers } from "@/problems/time-off";

/**
 * The worker a body or query names, under the request's scope: anyone for a caller with the route's permission; a
 * caller acting as themself (`scope.ownStaffMemberId`) only themself, their own id when none is named. Answers
 * undefined when a permitted caller named none.
 */
export function workerInScope(scope: Scope, workerId: string | undefined): string | undefined {
  const own = scope.ownStaffMemberId;
  if (own === null) return workerId;
  if (workerId !== undefined && workerId !== own) throw forbiddenForOthers();
  return own;
}

/** Whether the scope reaches this worker's time off (the route's permission, or being them). */
export const mayActOn = (scope: Scope, workerId: string) => scope.ownStaffMemberId === null || scope.ownStaffMemberId === workerId;
