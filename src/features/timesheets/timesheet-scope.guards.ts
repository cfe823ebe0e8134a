import type { Principal } from "@/domain/permissions";
import type { Scope } from "@/domain/scope";

/** Whose timesheets a request reads or writes: the request's scope (`authorize` with `organizationOfCaller`). */
export type TimesheetScope = Scope;

/** Who a change is recorded against: the staff member acting, else the partner's backend. */
export const actorOf = (principal: Principal) => principal.staffMemberId ?? `partner:${principal.partnerId}`;
