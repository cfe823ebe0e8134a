import { describe, expect, it } from "vitest";
import { api } from "../helpers/api";
import { createOrganization } from "../helpers/fixtures";
import { sendToWorker } from "../helpers/fuzz-harness";
import { loadDocument, walk } from "../helpers/openapi-walk";
import { createRecordFixture, fixtureToken } from "../helpers/record-fixture";
import { recordRequest } from "../helpers/tenancy-matrix";
import { createTimeOffPlace, orgPath, setBalance } from "../helpers/time-off";
import { clockIn, createWorkplace } from "../helpers/workplace";

/** Every list of the service, as one organization's admin reads it. */
async function lists() {
  const w = await createWorkplace();
  const org = `/api/organizations/${w.org.id}`;
  return {
    token: w.org.adminToken,
    paths: [
      "/api/organizations",
      `${org}/locations`,
      `${org}/roles`,
      `${org}/access-roles`,
      `${org}/staffmembers`,
      `${org}/locations/${w.location.id}/breaks`,
      `${org}/locations/${w.location.id}/staffmembers`,
      `${org}/locations/${w.location.id}/timesheets?startDate=2026-03-01&endDate=2026-03-31`,
      "/api/timesheets?startDate=2026-03-01&endDate=2026-03-31",
      "/api/timesheets/reports/employees?startDate=2026-03-01&endDate=2026-03-31",
      "/api/timesheets/pay?startDate=2026-03-01&endDate=2026-03-31",
      `${org}/availability?startDate=2026-03-01&endDate=2026-03-31`,
      `${org}/attendance-exceptions?startDate=2026-03-01&endDate=2026-03-31`,
      `${org}/locations/${w.location.id}/shift-requests`,
      `${org}/staffmembers/${w.staff.id}/availability`,
    ],
  };
}

const withQuery = (path: string, query: string) => `${path}${path.includes("?") ? "&" : "?"}${query}`;

describe("lists", () => {
  it("GET every list refuses a limit that is not decimal digits with 400 naming limit", async () => {
    const { token, paths } = await lists();
    for (const path of paths) {
      for (const limit of ["0x10", "1e2", "%2016", "16.0", "-1", ""]) {
        const res = await api("GET", withQuery(path, `limit=${limit}`), { token });
        expect(res.status, `${path} limit=${limit}`).toBe(400);
        expect(res.body.code).toBe("VALIDATION_FAILED");
        expect(res.body.errors.map((e: { path: string }) => e.path)).toContain("limit");
      }
      expect((await api("GET", withQuery(path, "limit=16"), { token })).status, path).toBe(200);
    }
  });

  it("GET every list refuses a cursor it did not hand out with 400 naming cursor", async () => {
    const { token, paths } = await lists();
    for (const path of paths) {
      for (const cursor of ["not-a-cursor", "%21%21%21", "bm9wZSB3aXRoIHNwYWNlcw"]) {
        const res = await api("GET", withQuery(path, `cursor=${cursor}`), { token });
        expect(res.status, `${path} cursor=${cursor}`).toBe(400);
        expect(res.body.errors.map((e: { path: string }) => e.path)).toContain("cursor");
      }
    }
  });

  it("GET every operation of the document that takes a cursor refuses one it did not hand out", async () => {
    const document = await loadDocument();
    const fixture = await createRecordFixture();
    const paged = walk(document).filter((op) => op.method === "GET" && op.queryParams.some((p) => p.name === "cursor"));
    expect(paged.length).toBeGreaterThan(20);
    for (const op of paged) {
      const request = recordRequest(document, op, fixture);
      const res = await sendToWorker(
        { ...request, query: [...request.query, ["cursor", "bm9wZSB3aXRoIHNwYWNlcw"]] },
        fixtureToken(fixture, op.path),
      );
      expect(res.status, `${op.name}: ${res.text.slice(0, 200)}`).toBe(400);
      expect(
        JSON.parse(res.text).errors.map((e: { path: string }) => e.path),
        op.name,
      ).toContain("cursor");
    }
  });

  it("GET a directory list follows its own cursor to the next page", async () => {
    const org = await createOrganization();
    const first = await api("GET", `/api/organizations/${org.id}/roles?limit=1`, { token: org.adminToken });
    await api("POST", `/api/organizations/${org.id}/roles`, { token: org.adminToken, body: { name: "Barista" } });
    const again = await api("GET", `/api/organizations/${org.id}/roles?limit=1`, { token: org.adminToken });
    const link = /^<([^>]+)>; rel="next"$/.exec(again.headers.get("Link") ?? "");
    expect(link).not.toBeNull();
    const next = await api("GET", link![1]!, { token: org.adminToken });
    expect(next.status).toBe(200);
    expect(next.body.map((r: { id: string }) => r.id)).not.toContain(first.body[0].id);
  });

  it("GET lists take booleans as the words true and false only", async () => {
    const { token } = await lists();
    for (const query of ["includeDeleted=1", "includeDeleted=yes", "includeDeleted=TRUE"]) {
      expect((await api("GET", `/api/organizations?${query}`, { token })).status, query).toBe(400);
    }
    expect((await api("GET", "/api/organizations?includeDeleted=true", { token })).status).toBe(200);
  });

  /** Every item of a bare-array list, a page of one at a time through its Link headers. */
  async function followPages(path: string, token: string) {
    const items: { id: string }[] = [];
    let next: string | null = withQuery(path, "limit=1");
    while (next) {
      const res = await api("GET", next, { token });
      expect(res.status, res.text).toBe(200);
      expect(res.body.length).toBeLessThanOrEqual(1);
      items.push(...res.body);
      next = /^<([^>]+)>; rel="next"$/.exec(res.headers.get("Link") ?? "")?.[1] ?? null;
    }
    return items;
  }

  it("GET a balance's ledger is paged by entry id, every entry once", async () => {
    const place = await createTimeOffPlace();
    for (const hours of [8, 16, 4]) await setBalance(place, hours);
    const path = orgPath(place.org, `/policies/${place.policy.id}/worker-policies/${place.worker.id}/ledger`);
    const whole = await api("GET", path, { token: place.org.adminToken });
    expect(whole.body.length).toBeGreaterThanOrEqual(3);
    const paged = await followPages(path, place.org.adminToken);
    expect(paged).toEqual(whole.body);
    expect(paged.map((e) => e.id)).toEqual([...paged.map((e) => e.id)].sort());
  });

  it("GET the notes of an open shift and the event feed are paged with Link", async () => {
    const w = await createWorkplace();
    expect((await clockIn(w)).status).toBe(200);
    const notes = `/api/organizations/${w.org.id}/staffmembers/${w.staff.id}/shift-notes`;
    for (const text of ["first", "second", "third"]) {
      expect((await api("POST", notes, { token: w.token, body: { text } })).status).toBe(201);
    }
    const written = await followPages(notes, w.token);
    expect(written.map((n) => (n as unknown as { text: string }).text)).toEqual(["first", "second", "third"]);
    expect(new Set(written.map((n) => n.id)).size).toBe(3);
    const feed = `/api/organizations/${w.org.id}/events`;
    const whole = (await api("GET", feed, { token: w.org.adminToken })).body;
    expect(whole.length).toBeGreaterThanOrEqual(3);
    expect(await followPages(feed, w.org.adminToken)).toEqual(whole);
  });
});
