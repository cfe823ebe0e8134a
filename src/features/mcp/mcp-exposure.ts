import { expandPermissions, isPartnerLevel, type Permission, type Principal } from "@/domain/permissions";
import { scopesGrant } from "@/domain/token-scopes";
import type { ApiTool } from "./mcp-tools";

/** The permissions that let a token change anything beyond acting on its own staff member. */
const WRITING: readonly Permission[] = [
  "ORGANIZATION_ADMIN",
  "LOCATION_ADMIN",
  "EMPLOYEE_WRITE",
  "SHIFT_WRITE",
  "SCHEDULE_WRITE",
  "TIMEOFF_WRITE",
  "TIMEOFF_APPROVE",
  "TIMESHEET_APPROVE",
];

/**
 * Whether an MCP session of this token lists, and may call, this operation: the one place deciding it. Every read is
 * exposed (the API still answers each call's permission and tenancy); a write only to a token that may write: a
 * partner's (its organizations, or one it acts on as admin) or a staff member's whose access role holds a writing
 * permission, so an employee's assistant can read but never clock anyone in. A token with scopes sees only the
 * operations its scopes grant (the operation's `x-required-scope`): a `*:read` token's assistant has no write tool.
 */
export function exposesOperation(principal: Principal, tool: Pick<ApiTool, "readOnly" | "requiredScope">): boolean {
  if (principal.device) return false;
  if (tool.requiredScope !== null && !scopesGrant(principal.scopes, tool.requiredScope)) return false;
  if (tool.readOnly) return true;
  if (isPartnerLevel(principal) || principal.staffMemberId === null) return true;
  const held = expandPermissions(principal.permissions);
  return WRITING.some((permission) => held.has(permission));
}
