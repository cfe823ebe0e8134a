import type { Principal } from "@/domain/permissions";
import type { ApiTool } from "./mcp-tools";

/** The JSON-RPC id of a tools/call (the MCP SDK's RequestId). */
export type JsonRpcId = string | number;

const hex = (bytes: ArrayBuffer) => Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");

/** Who the token speaks for: the API's idempotency scope (partner, organization, staff member). */
const subjectOf = ({ partnerId, organizationId, staffMemberId }: Principal) =>
  `${partnerId}:${organizationId ?? ""}:${staffMemberId ?? ""}`;

/**
 * The Idempotency-Key a write tool's call sends: the caller's `idempotencyKey`, else one derived from the JSON-RPC
 * request id, the token's subject, the tool and its arguments, so a client retrying a tools/call under the same id
 * writes once. The arguments are part of it because a stateless server sees no session: a client that numbers its
 * requests from 0 on every connection sends another call under an id it used before, which is a new write, not a
 * key reused with another body. Undefined for a tool whose operation takes no key; a string for an unusable argument.
 */
export async function idempotencyKeyOf(
  tool: Pick<ApiTool, "name" | "idempotent">,
  args: Record<string, unknown>,
  requestId: JsonRpcId,
  principal: Principal,
): Promise<{ key: string } | { problem: string } | undefined> {
  if (!tool.idempotent) return undefined;
  const given = args.idempotencyKey;
  if (given !== undefined) {
    return typeof given === "string" ? { key: given } : { problem: "Argument 'idempotencyKey' must be a string of 1 to 255 characters." };
  }
  const { idempotencyKey: _, ...rest } = args;
  const source = JSON.stringify([JSON.stringify(requestId), subjectOf(principal), tool.name, rest]);
  return { key: `mcp-${hex(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(source)))}` };
}
