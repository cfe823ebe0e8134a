import type { Context } from "hono";
import { mayAct, type Permission } from "@/domain/permissions";
import type { AppBindings } from "@/platform/http/env";
import { forbiddenForOthers } from "@/problems/time-off";

/**
 * The self rule for a worker named in a body or query: a caller with the permission acts on anyone; any other
 * caller only on themself (their own id when none is named). Answers the worker id to act on, or undefined when
 * a permitted caller named none.
 */
export function selfScoped(c: Context<AppBindings>, permission: Permission, workerId: string | undefined): string | undefined {
  const principal = c.var.principal;
  if (mayAct(principal, permission)) return workerId;
  if (!principal.staffMemberId || (workerId !== undefined && workerId !== principal.staffMemberId)) throw forbiddenForOthers();
  return principal.staffMemberId;
}

/** Whether the caller may act on this worker's time off (the permission, or being them). */
export const mayActOn = (c: Context<AppBindings>, permission: Permission, workerId: string) =>
  mayAct(c.var.principal, permission, workerId);
