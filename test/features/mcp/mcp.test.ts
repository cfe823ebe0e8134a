import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { createOrganization } from "../../helpers/fixtures";
import { connectMcp as connect, textOf } from "../../helpers/mcp";
import { feed } from "../../helpers/pay";
import { createStaffMember, staffToken } from "../../helpers/staff";
import { accessToken } from "../../helpers/tokens";
import { clockIn, createWorkplace, type Workplace } from "../../helpers/workplace";

const MINUTE = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

const toolNames = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name);

/** A published entry of the workplace's staff member starting an hour ago, worked from 20 minutes late. */
async function lateClockIn(w: Workplace) {
  const start = Date.now() - 60 * MINUTE;
  const entry = await api("POST", `/api/organizations/${w.org.id}/locations/${w.location.id}/schedules`, {
    token: w.org.adminToken,
    body: { employeeId: w.staff.id, roleId: w.roleId, startTime: iso(start), endTime: iso(start + 120 * MINUTE) },
  });
  expect(entry.status).toBe(201);
  expect((await clockIn(w, { occurredAt: iso(start + 20 * MINUTE) })).status).toBe(200);
  return { entryId: entry.body.id as string, startDate: iso(start).slice(0, 10), endDate: iso(Date.now()).slice(0, 10) };
}

describe("/mcp, the Model Context Protocol over streamable HTTP", () => {
  it("refuses a request without a bearer token or with a bad one as the API does (401 problem)", async () => {
    const missing = await api("POST", "/mcp", { body: { jsonrpc: "2.0", id: 1, method: "tools/list" } });
    expect([missing.status, missing.body.code]).toEqual([401, "MISSING_BEARER_TOKEN"]);
    expect(missing.headers.get("Content-Type")).toContain("application/problem+json");
    const forged = await api("POST", "/mcp", { token: "not-a-token", body: { jsonrpc: "2.0", id: 1, method: "tools/list" } });
    expect([forged.status, forged.body.code]).toEqual([401, "INVALID_ACCESS_TOKEN"]);
  });

  it("answers a bare JSON-RPC tools/list as JSON (the README's curl), and GET or DELETE with 405: it is stateless", async () => {
    const org = await createOrganization();
    const headers = { Accept: "application/json, text/event-stream" };
    const listed = await api("POST", "/mcp", { token: org.adminToken, headers, body: { jsonrpc: "2.0", id: 7, method: "tools/list" } });
    expect([listed.status, listed.headers.get("Content-Type")]).toEqual([200, "application/json"]);
    expect(listed.body.id).toBe(7);
    expect(listed.body.result.tools.map((tool: { name: string }) => tool.name)).toContain("listAttendanceExceptions");
    for (const method of ["GET", "DELETE"]) {
      const refused = await api(method, "/mcp", { token: org.adminToken, headers });
      expect([refused.status, refused.headers.get("Allow")]).toEqual([405, "POST"]);
    }
  });

  it("lists the reads to every token and the writes only to one that may write", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    const manager = await createStaffMember(w.org, { locationIds: [w.location.id], accessRoleName: "Manager" });
    const asManager = await toolNames(await connect(await staffToken(w.org, manager.id)));
    const asEmployee = await toolNames(await connect(w.token));
    for (const names of [asManager, asEmployee]) {
      expect(names).toContain("listAttendanceExceptions");
      expect(names).toContain("listTimesheets");
      expect(names).not.toContain("exchangeToken");
      expect(names).not.toContain("kioskPunch");
    }
    expect(asManager).toContain("createLocation");
    expect(asManager).toContain("updateTimesheetShift");
    expect(asEmployee).not.toContain("createLocation");
    expect(asEmployee).not.toContain("clockIn");
    expect(asEmployee.length).toBeLessThan(asManager.length);
    // A partner's own token (no organization) writes its organizations.
    expect(await toolNames(await connect(await accessToken()))).toContain("createOrganizationWithDefaults");
  });

  it("has a tool for every operation an access token may call: not the public ones, not the kiosk's device-token ones", async () => {
    const org = await createOrganization();
    const document = (await api("GET", "/api/openapi.json")).body as { paths: Record<string, Record<string, Record<string, any>>> };
    const expected = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.values(item)
        .filter((operation) => operation.security?.length !== 0 && !path.startsWith("/api/kiosk/"))
        .map((operation) => operation.operationId as string),
    );
    expect(expected.length).toBeGreaterThan(150);
    expect((await toolNames(await connect(org.adminToken))).toSorted()).toEqual(expected.toSorted());
  });

  it("describes a tool by its operation: summary, description and an input schema of its parameters and body", async () => {
    const org = await createOrganization();
    const { tools } = await (await connect(org.adminToken)).listTools();
    const list = tools.find((tool) => tool.name === "listAttendanceExceptions")!;
    expect(list.description).toMatch(/^List attendance exceptions\n\n/);
    expect(list.annotations?.readOnlyHint).toBe(true);
    expect(list.inputSchema.required).toEqual(expect.arrayContaining(["organization_id", "startDate", "endDate"]));
    expect(Object.keys(list.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(["cursor", "limit", "locationId"]));
    const create = tools.find((tool) => tool.name === "createLocation")!;
    expect(create.annotations?.readOnlyHint).toBe(false);
    expect(create.inputSchema.required).toEqual(["organization_id", "body"]);
    expect(JSON.stringify(create.inputSchema)).not.toContain("#/components/");
  });

  it("answers 'who is late today?' with the API's attendance exceptions, through the caller's token", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    const late = await lateClockIn(w);
    const client = await connect(w.org.adminToken);
    const result = await client.callTool({
      name: "listAttendanceExceptions",
      arguments: { organization_id: w.org.id, startDate: late.startDate, endDate: late.endDate, type: "LATE_CLOCK_IN" },
    });
    expect(result.isError).toBe(false);
    const exceptions = JSON.parse(textOf(result)) as Record<string, unknown>[];
    expect(exceptions.map((e) => [e.type, e.employeeId, e.minutes, e.scheduleEntryId])).toEqual([
      ["LATE_CLOCK_IN", w.staff.id, 20, late.entryId],
    ]);
    const direct = await api(
      "GET",
      `/api/organizations/${w.org.id}/attendance-exceptions?startDate=${late.startDate}&endDate=${late.endDate}&type=LATE_CLOCK_IN`,
      {
        token: w.org.adminToken,
      },
    );
    expect(exceptions).toEqual(direct.body);
  });

  it("answers 'what will next week cost?' with the API's schedule cost projection", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    const nextWeek = Date.now() + 7 * 86_400_000;
    const day = iso(nextWeek).slice(0, 10);
    const entry = await api("POST", `/api/organizations/${w.org.id}/locations/${w.location.id}/schedules`, {
      token: w.org.adminToken,
      body: { employeeId: w.staff.id, roleId: w.roleId, startTime: `${day}T09:00:00.000Z`, endTime: `${day}T17:00:00.000Z` },
    });
    expect(entry.status).toBe(201);
    const result = await (await connect(w.org.adminToken)).callTool({
      name: "getScheduleCost",
      arguments: { organizationId: w.org.id, locationId: w.location.id, startDate: day, endDate: day, includeDrafts: true },
    });
    expect(result.isError).toBe(false);
    const direct = await api(
      "GET",
      `/api/organizations/${w.org.id}/locations/${w.location.id}/schedules/cost?startDate=${day}&endDate=${day}&includeDrafts=true`,
      {
        token: w.org.adminToken,
      },
    );
    expect(direct.status).toBe(200);
    expect(JSON.parse(textOf(result))).toEqual(direct.body);
    // The entry's 8 hours (09:00–17:00) are the week's scheduled minutes: 8 × 60 = 480.
    expect(JSON.parse(textOf(result)).totals.scheduledMinutes).toBe(480);
  });

  it("writes through a write tool for a token that may, with the API's event and record", async () => {
    const org = await createOrganization();
    const client = await connect(org.adminToken);
    const result = await client.callTool({
      name: "createRole",
      arguments: { organization_id: org.id, body: { name: "Barista" } },
    });
    expect(result.isError).toBe(false);
    const role = JSON.parse(textOf(result)) as { id: string; name: string };
    expect(role.name).toBe("Barista");
    const read = await api("GET", `/api/organizations/${org.id}/roles/${role.id}`, { token: org.adminToken });
    expect([read.status, read.body.name]).toEqual([200, "Barista"]);
    expect((await feed(org)).filter((e) => e.type === "role.created").map((e) => e.data.id)).toEqual([role.id]);
  });

  it("answers a call the token may not make with the API's problem as a tool error, and another organization's as 404", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    const asEmployee = await connect(w.token);
    const forbidden = await asEmployee.callTool({ name: "getAttendanceSettings", arguments: { organization_id: w.org.id } });
    expect(forbidden.isError).toBe(true);
    expect(JSON.parse(textOf(forbidden))).toMatchObject({ status: 403, code: "FORBIDDEN" });
    const other = await createOrganization();
    const elsewhere = await (await connect(await accessToken({ organizationId: other.id }))).callTool({
      name: "getAttendanceSettings",
      arguments: { organization_id: w.org.id },
    });
    expect(elsewhere.isError).toBe(true);
    expect(JSON.parse(textOf(elsewhere))).toMatchObject({ status: 404, code: "ORGANIZATION_NOT_FOUND" });
    await expect(asEmployee.callTool({ name: "createLocation", arguments: { organization_id: w.org.id, body: {} } })).rejects.toThrow(
      /No tool 'createLocation'/,
    );
  });
  it("lists only what a scoped token's scopes grant: no write tool for *:read, only timesheet reads for timesheets:read", async () => {
    const org = await createOrganization();
    const unscoped = await toolNames(await connect(await accessToken({ organizationId: org.id })));
    expect(unscoped).toContain("createRole");
    const reader = await toolNames(await connect(await accessToken({ organizationId: org.id, scopes: ["*:read"] })));
    expect(reader).toContain("listAttendanceExceptions");
    expect(reader).not.toContain("createRole");
    const timesheets = await toolNames(await connect(await accessToken({ organizationId: org.id, scopes: ["timesheets:read"] })));
    expect(timesheets).toContain("listTimesheets");
    expect(timesheets).not.toContain("listAttendanceExceptions");
    expect(timesheets.every((name) => reader.includes(name))).toBe(true);
  });
});
