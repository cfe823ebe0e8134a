import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { createOrganization, type OrganizationFixture } from "../../helpers/fixtures";
import { connectMcp, textOf } from "../../helpers/mcp";
import { feed } from "../../helpers/pay";

const ACCEPT = { Accept: "application/json, text/event-stream" };

/** The organization's roles of this name, and its `role.created` events for them. */
async function rolesNamed(org: OrganizationFixture, name: string) {
  const roles = (await api("GET", `/api/organizations/${org.id}/roles?limit=500`, { token: org.adminToken })).body as {
    id: string;
    name: string;
  }[];
  const ids = roles.filter((role) => role.name === name).map((role) => role.id);
  const events = (await feed(org)).filter((event) => event.type === "role.created" && ids.includes(event.data.id as string));
  return { rows: ids.length, events: events.length };
}

/** A raw JSON-RPC tools/call, as a client retrying the same request (same id) sends it. */
const rawCall = (org: OrganizationFixture, id: number | string, args: Record<string, unknown>) =>
  api("POST", "/mcp", {
    token: org.adminToken,
    headers: ACCEPT,
    body: { jsonrpc: "2.0", id, method: "tools/call", params: { name: "createRole", arguments: { organization_id: org.id, ...args } } },
  });

describe("/mcp write tools send an Idempotency-Key", () => {
  it("documents an optional idempotencyKey on a POST tool that takes one, and on no read", async () => {
    const org = await createOrganization();
    const { tools } = await (await connectMcp(org.adminToken)).listTools();
    const create = tools.find((tool) => tool.name === "createRole")!;
    expect(create.inputSchema.properties?.idempotencyKey).toMatchObject({ type: "string", minLength: 1, maxLength: 255 });
    expect(create.inputSchema.required).not.toContain("idempotencyKey");
    const read = tools.find((tool) => tool.name === "listRoles")!;
    expect(read.inputSchema.properties?.idempotencyKey).toBeUndefined();
  });

  it("the same call repeated with the same idempotencyKey writes once; another key writes again", async () => {
    const org = await createOrganization();
    const client = await connectMcp(org.adminToken);
    const call = (idempotencyKey: string) =>
      client.callTool({ name: "createRole", arguments: { organization_id: org.id, body: { name: "Barista" }, idempotencyKey } });
    const first = await call("mcp-test-key-1");
    const again = await call("mcp-test-key-1");
    expect([first.isError, again.isError]).toEqual([false, false]);
    expect(JSON.parse(textOf(again)).id).toBe(JSON.parse(textOf(first)).id);
    expect(await rolesNamed(org, "Barista")).toEqual({ rows: 1, events: 1 });
    const other = await call("mcp-test-key-2");
    expect(other.isError).toBe(false);
    expect(JSON.parse(textOf(other)).id).not.toBe(JSON.parse(textOf(first)).id);
    expect(await rolesNamed(org, "Barista")).toEqual({ rows: 2, events: 2 });
  });

  it("without idempotencyKey, a tools/call retried under the same JSON-RPC id writes once; a new id writes again", async () => {
    const org = await createOrganization();
    const args = { body: { name: "Host" } };
    const first = await rawCall(org, 41, args);
    const retried = await rawCall(org, 41, args);
    expect([first.status, retried.status]).toEqual([200, 200]);
    expect([first.body.result.isError, retried.body.result.isError]).toEqual([false, false]);
    expect(retried.body.result.content[0].text).toBe(first.body.result.content[0].text);
    expect(await rolesNamed(org, "Host")).toEqual({ rows: 1, events: 1 });
    expect((await rawCall(org, 42, args)).body.result.isError).toBe(false);
    // The id "41" (a string) is another request than 41.
    expect((await rawCall(org, "41", args)).body.result.isError).toBe(false);
    expect(await rolesNamed(org, "Host")).toEqual({ rows: 3, events: 3 });
  });

  it("another call under a JSON-RPC id used before (a client numbering from 0 per connection) is a new write", async () => {
    const org = await createOrganization();
    expect((await rawCall(org, 1, { body: { name: "Cook" } })).body.result.isError).toBe(false);
    const next = await rawCall(org, 1, { body: { name: "Runner" } });
    expect(next.body.result.isError).toBe(false);
    expect([await rolesNamed(org, "Cook"), await rolesNamed(org, "Runner")]).toEqual([
      { rows: 1, events: 1 },
      { rows: 1, events: 1 },
    ]);
  });

  it("refuses an idempotencyKey the API would not take, writing nothing", async () => {
    const org = await createOrganization();
    const client = await connectMcp(org.adminToken);
    const tooLong = await client.callTool({
      name: "createRole",
      arguments: { organization_id: org.id, body: { name: "Porter" }, idempotencyKey: "k".repeat(256) },
    });
    expect(tooLong.isError).toBe(true);
    expect(JSON.parse(textOf(tooLong))).toMatchObject({ status: 400, code: "INVALID_IDEMPOTENCY_KEY" });
    const notText = await client.callTool({
      name: "createRole",
      arguments: { organization_id: org.id, body: { name: "Porter" }, idempotencyKey: 7 },
    });
    expect([notText.isError, textOf(notText)]).toEqual([true, expect.stringMatching(/idempotencyKey/)]);
    expect(await rolesNamed(org, "Porter")).toEqual({ rows: 0, events: 0 });
  });
});
