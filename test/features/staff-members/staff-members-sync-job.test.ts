import { createExecutionContext, env, introspectWorkflow, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "@/worker";
import { api } from "../../helpers/api";
import { createOrganization, type OrganizationFixture } from "../../helpers/fixtures";
import { feed } from "../../helpers/pay";
import { createStaffMember, staffPath, staffToken } from "../../helpers/staff";

/**
 * A staff sync larger than the request's as a BULK job (src/features/staff-members/staff-sync-job.data.ts,
 * src/jobs/bulk-workflow.ts). The sync runs through the Worker's fetch with an environment where more than 2 records
 * make a job (STAFF_SYNC_IN_REQUEST_MAX) and a page is 2 records (STAFF_SYNC_JOB_PAGE_RECORDS): 5 records make the
 * steps page-1 (2 records), page-2 (2), page-3 (1), then finish. JOB_FAULT_STEPS names the steps that fail after their
 * work (the vitest config allows it: JOB_FAULTS), so a page is redelivered having committed its batch.
 */
const AS_JOB = { STAFF_SYNC_IN_REQUEST_MAX: "2", STAFF_SYNC_JOB_PAGE_RECORDS: "2" };

type Body = { records: Record<string, unknown>[]; deactivateMissing?: boolean };
type JobAnswer = {
  id: string;
  kind: string;
  status: string;
  step: string;
  steps: number;
  progress: number;
  error: { code: string } | null;
};

const five = (org: OrganizationFixture) => [
  { externalId: "e-1", name: "Ada", email: "ada@example.com", roleIds: [org.defaultRoleId] },
  { externalId: "e-2", name: "Grace", accessRoleName: "Manager", hourlyWage: 20 },
  { externalId: "e-3", name: "Linus", accessRoleId: org.accessRoles.Admin },
  { externalId: "e-4", name: "Barbara" },
  { externalId: "e-5", name: "Edsger", birthDate: "1990-01-31" },
];

/** POST …/staffmembers/sync through the Worker's fetch with `vars` over the test environment. */
async function post(org: OrganizationFixture, body: Body, vars: Record<string, string> = AS_JOB, token = org.adminToken) {
  const request = new Request(`http://shiftline.test${staffPath(org, "/sync")}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const ctx = createExecutionContext();
  const response = await worker.fetch(request as never, { ...env, ...vars } as Env, ctx);
  await waitOnExecutionContext(ctx);
  return { status: response.status, location: response.headers.get("Location"), body: JSON.parse(await response.text()) };
}

/** A sync as a job, run to its end (retries without their delays); answers the 202's job and the job as GET answers it. */
async function syncAsJob(org: OrganizationFixture, body: Body, vars: Record<string, string> = {}) {
  await using workflows = await introspectWorkflow(env.BULK_WORKFLOW);
  await workflows.modifyAll(async (m) => {
    await m.disableRetryDelays();
  });
  const started = await post(org, body, { ...AS_JOB, ...vars });
  expect(started.status).toBe(202);
  expect(started.body).toMatchObject({ kind: "BULK", subject: "staff-sync", status: "QUEUED", progress: 0 });
  expect(started.location).toBe(`/api/organizations/${org.id}/jobs/${started.body.id}`);
  const [instance] = await workflows.get();
  await instance!.waitForStatus("complete");
  const job = await api("GET", started.location!, { token: org.adminToken });
  expect(job.status).toBe(200);
  return job.body as JobAnswer;
}

type Member = { id: string; externalId: string | null; name: string; accessRoleId: string; deletedAt: string | null; active: boolean };

/** Every member of the organization, deleted ones too, by externalId. */
async function membersOf(org: OrganizationFixture) {
  const res = await api("GET", staffPath(org, "?limit=500&includeDeleted=true"), { token: org.adminToken });
  expect(res.status).toBe(200);
  return (res.body as Member[]).sort((a, b) => String(a.externalId).localeCompare(String(b.externalId)));
}

/** The organization's events of these types, in order, as [type, externalId or job status]. */
async function eventsOf(org: OrganizationFixture, prefix: "staff_member." | "job.") {
  return (await feed(org)).filter((e) => e.type.startsWith(prefix)).map((e) => [e.type, (e.data.externalId ?? e.data.status) as string]);
}

const stagedOf = async (jobId: string) => (await env.FILES.list({ prefix: `jobs/${jobId}/` })).objects.map((o) => o.key);

describe("staff sync as a BULK job", () => {
  it("answers 202 with the job, which writes the records in pages of 2 with their events, as the request would", async () => {
    const inRequest = await createOrganization();
    const expected = await post(inRequest, { records: five(inRequest) }, {});
    expect(expected.status).toBe(200);

    const org = await createOrganization();
    const job = await syncAsJob(org, { records: five(org) });
    // page-1, page-2, page-3, finish.
    expect(job).toMatchObject({ kind: "BULK", status: "SUCCEEDED", step: "finish", steps: 4, progress: 1, error: null });
    const members = await membersOf(org);
    const figures = (m: Member, roles: Record<string, string>) => ({
      externalId: m.externalId,
      name: m.name,
      accessRole: Object.keys(roles).find((name) => roles[name] === m.accessRoleId),
      deletedAt: m.deletedAt,
    });
    expect(members.map((m) => figures(m, org.accessRoles))).toEqual(
      (await membersOf(inRequest)).map((m) => figures(m, inRequest.accessRoles)),
    );
    expect(members.map((m) => m.accessRoleId)).toEqual([
      org.accessRoles.Employee,
      org.accessRoles.Manager,
      org.accessRoles.Admin,
      org.accessRoles.Employee,
      org.accessRoles.Employee,
    ]);
    expect((await eventsOf(org, "staff_member.")).sort()).toEqual([
      ["staff_member.created", "e-1"],
      ["staff_member.created", "e-2"],
      ["staff_member.created", "e-3"],
      ["staff_member.created", "e-4"],
      ["staff_member.created", "e-5"],
    ]);
    expect(await eventsOf(org, "job.")).toEqual([
      ["job.created", "QUEUED"],
      ["job.succeeded", "SUCCEEDED"],
    ]);
    expect(await stagedOf(job.id)).toEqual([]);

    // The same payload again changes nothing; one record changed updates that member only.
    expect(await syncAsJob(org, { records: five(org) })).toMatchObject({ status: "SUCCEEDED" });
    const changed = five(org).map((r) => (r.externalId === "e-4" ? { ...r, name: "Barbara L." } : r));
    expect(await syncAsJob(org, { records: changed })).toMatchObject({ status: "SUCCEEDED" });
    expect((await eventsOf(org, "staff_member.")).slice(5)).toEqual([["staff_member.updated", "e-4"]]);
    expect((await membersOf(org)).map((m) => m.id)).toEqual(members.map((m) => m.id));
  });

  it("keeps the synchronous path at the request's limit: 2 records answer 200, 3 answer 202", async () => {
    const org = await createOrganization();
    const two = await post(org, { records: five(org).slice(0, 2) });
    expect(two.status).toBe(200);
    expect(two.body).toMatchObject({ created: 2, updated: 0, deactivated: 0 });
    expect(await syncAsJob(org, { records: five(org).slice(0, 3) })).toMatchObject({ status: "SUCCEEDED", steps: 3 });
    expect((await membersOf(org)).map((m) => m.externalId)).toEqual(["e-1", "e-2", "e-3"]);
  });

  it("deactivateMissing: pages of members after the records, deactivating those the payload does not name", async () => {
    const org = await createOrganization();
    const manual = await createStaffMember(org);
    const earlier = ["a", "b", "c", "d", "e"].map((externalId) => ({ externalId, name: externalId }));
    expect((await post(org, { records: earlier }, {})).status).toBe(200);
    const job = await syncAsJob(org, {
      records: ["a", "f", "g"].map((externalId) => ({ externalId, name: externalId })),
      deactivateMissing: true,
    });
    // page-1, page-2, then 7 live members with an externalId in pages of 2: deactivate-1 … deactivate-4, finish.
    expect(job).toMatchObject({ status: "SUCCEEDED", step: "finish", steps: 7, progress: 1 });
    const members = await membersOf(org);
    const live = members.filter((m) => m.deletedAt === null).map((m) => m.externalId);
    expect(live).toEqual(["a", "f", "g", null]);
    expect(members.find((m) => m.id === manual.id)?.deletedAt).toBeNull();
    const deleted = members.filter((m) => m.deletedAt !== null);
    expect(deleted.map((m) => [m.externalId, m.active])).toEqual([
      ["b", false],
      ["c", false],
      ["d", false],
      ["e", false],
    ]);
    const deletions = (await eventsOf(org, "staff_member.")).filter(([type]) => type === "staff_member.deleted");
    expect(deletions.map(([, externalId]) => externalId).sort()).toEqual(["b", "c", "d", "e"]);
  });

  it("resumes after a failure injected after each step's work: no record lost or doubled, each event once", async () => {
    const steps = ["page-1", "page-2", "page-3", "deactivate-1", "deactivate-2", "deactivate-3", "deactivate-4", "finish"];
    for (const step of steps) {
      const org = await createOrganization();
      // Two members the payload does not name, deactivated by the job: 7 live with an externalId, 4 pages of 2.
      expect((await post(org, { records: ["x-1", "x-2"].map((externalId) => ({ externalId, name: externalId })) }, {})).status).toBe(200);
      const job = await syncAsJob(org, { records: five(org), deactivateMissing: true }, { JOB_FAULT_STEPS: step, JOB_FAULT_TIMES: "1" });
      expect({ step, status: job.status }).toEqual({ step, status: "SUCCEEDED" });
      const members = await membersOf(org);
      expect({ step, members: members.map((m) => [m.externalId, m.deletedAt === null]) }).toEqual({
        step,
        members: [
          ["e-1", true],
          ["e-2", true],
          ["e-3", true],
          ["e-4", true],
          ["e-5", true],
          ["x-1", false],
          ["x-2", false],
        ],
      });
      const events = (await eventsOf(org, "staff_member.")).slice(2).sort();
      expect({ step, events }).toEqual({
        step,
        events: [
          ["staff_member.created", "e-1"],
          ["staff_member.created", "e-2"],
          ["staff_member.created", "e-3"],
          ["staff_member.created", "e-4"],
          ["staff_member.created", "e-5"],
          ["staff_member.deleted", "x-1"],
          ["staff_member.deleted", "x-2"],
        ],
      });
      expect({ step, jobs: await eventsOf(org, "job.") }).toEqual({
        step,
        jobs: [
          ["job.created", "QUEUED"],
          ["job.succeeded", "SUCCEEDED"],
        ],
      });
      expect(await stagedOf(job.id)).toEqual([]);
    }
  });

  it("a page failing every retry ends the job FAILED, its earlier pages kept once; the same sync again completes", async () => {
    const org = await createOrganization();
    const failed = await syncAsJob(org, { records: five(org) }, { JOB_FAULT_STEPS: "page-2", JOB_FAULT_TIMES: "99" });
    expect(failed).toMatchObject({ status: "FAILED", step: "fail", error: { code: "JOB_FAILED" } });
    expect(await eventsOf(org, "job.")).toEqual([
      ["job.created", "QUEUED"],
      ["job.failed", "FAILED"],
    ]);
    expect(await stagedOf(failed.id)).toEqual([]);
    // The fault comes after page-2's batch: pages 1 and 2 are written, each once; page 3 never ran.
    expect((await membersOf(org)).map((m) => m.externalId)).toEqual(["e-1", "e-2", "e-3", "e-4"]);

    expect(await syncAsJob(org, { records: five(org) })).toMatchObject({ status: "SUCCEEDED" });
    expect((await membersOf(org)).map((m) => m.externalId)).toEqual(["e-1", "e-2", "e-3", "e-4", "e-5"]);
    expect((await eventsOf(org, "staff_member.")).map(([type, id]) => `${type} ${id}`).sort()).toEqual(
      ["e-1", "e-2", "e-3", "e-4", "e-5"].map((id) => `staff_member.created ${id}`),
    );
  });

  it("refuses in the request what the request's sync refuses, naming records of every page, with no job and nothing written", async () => {
    const org = await createOrganization();
    const records = five(org).map((r, i) => (i === 0 ? { ...r, locationIds: ["ghost"] } : i === 3 ? { ...r, accessRoleName: "Ghost" } : r));
    const refused = await post(org, { records });
    expect(refused.status).toBe(400);
    expect(refused.body.errors.map((e: { path: string }) => e.path)).toEqual(["records.0.locationIds", "records.3.accessRoleName"]);

    const dup = await post(org, { records: [...five(org), { externalId: "e-2", name: "again" }] });
    expect(dup.status).toBe(400);
    expect(dup.body.errors).toEqual([{ path: "records.5.externalId", message: "duplicates records.1.externalId" }]);

    // A Manager may not make anyone an Admin: e-5, on the third page.
    const manager = await createStaffMember(org, { accessRoleName: "Manager" });
    const token = await staffToken(org, manager.id);
    const records5 = five(org).map(({ accessRoleId: _, ...r }) => ({
      ...r,
      accessRoleName: r.externalId === "e-5" ? "Admin" : "Employee",
    }));
    const forbidden = await post(org, { records: records5 }, AS_JOB, token);
    expect(forbidden.status).toBe(403);

    expect((await membersOf(org)).map((m) => m.externalId)).toEqual([null]);
    expect(await eventsOf(org, "job.")).toEqual([]);
  });
});
