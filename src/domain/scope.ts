import type { Principal } from "./permissions";

/** Who acts, and on what: settled by the one authorization step (auth/authorize) before a handler runs. */
export interface Scope {
  principal: Principal;
  /** The organization acted on: the path's, else the token's, else the one a partner names (`?organizationId=`). */
  organizationId: string;
  /** The location the path names (`{locationId}` or `{location_id}`), else null. */
  locationId: string | null;
  /**
   * Set when the caller acts only as themself: a staff member without the route's permission on a route that lets
   * one act for themself (sees their own records, claims and states preferences for themself).
   */
  ownStaffMemberId: string | null;
}
