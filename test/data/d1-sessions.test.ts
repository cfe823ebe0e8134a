import { describe, expect, it } from "vitest";
import { api } from "../helpers/api";
import { requestWithInterference } from "../helpers/interfering-d1";
import { recordingRequest } from "../helpers/recording-d1";
import { tenantDb } from "../helpers/shards";
import { clockIn, createWorkplace, HERE, type Workplace } from "../helpers/workplace";

const D1_BOOKMARK = "[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}";
/** The organizations tests create live on DB_SHARD_2: their bookmarks name it. */
const BOOKMARK = new RegExp(`^DB_SHARD_2:${D1_BOOKMARK}$`);
const d1Part = (bookmark: string) => bookmark.slice(bookmark.indexOf(":") + 1);
const DIRECTORY_READ = { shard: "DB", anchor: "first-unconstrained" };

const shiftState = (w: Workplace, headers: Record<string, string> = {}) =>
  api("GET", `${w.punchPath}/shift-state`, { token: w.token, headers });

const openShifts = async (w: Workplace) =>
  (await tenantDb()
    .prepare("SELECT COUNT(*) AS n FROM shifts WHERE employee_id = ? AND end_at IS NULL")
    .bind(w.staff.id)
    .first<{ n: number }>())!.n;

describe("X-D1-Bookmark: read-your-writes across replicas", () => {
  it("a read answers the session's bookmark; a write sent with it answers a later one, which a read accepts", async () => {
    const w = await createWorkplace();
    const before = await shiftState(w);
    expect(before.status).toBe(200);
    const first = before.headers.get("X-D1-Bookmark")!;
    expect(first).toMatch(BOOKMARK);

    const punched = await clockIn(w, {}, { "X-D1-Bookmark": first });
    expect(punched.status).toBe(200);
    const written = punched.headers.get("X-D1-Bookmark")!;
    expect(written).toMatch(BOOKMARK);
    // D1 bookmarks order as strings: the write's is later than the one the client sent.
    expect(written > first).toBe(true);

    const after = await shiftState(w, { "X-D1-Bookmark": written });
    expect(after.status).toBe(200);
    expect(after.body.openShift.id).toBe(punched.body.id);
    expect(after.headers.get("X-D1-Bookmark")! >= written).toBe(true);
  });

  it("a session is anchored at the bookmark the client sent, on the database the bookmark names", async () => {
    const w = await createWorkplace();
    const bookmark = (await shiftState(w)).headers.get("X-D1-Bookmark")!;
    const res = await recordingRequest("GET", `${w.punchPath}/shift-state`, {
      token: w.token,
      headers: { "X-D1-Bookmark": bookmark },
    });
    expect(res.status).toBe(200);
    expect(res.sessionsOn).toEqual([{ shard: "DB_SHARD_2", anchor: d1Part(bookmark) }]);
    expect(res.directorySessions).toEqual([DIRECTORY_READ]);
  });

  it("a bookmark of another database anchors only that database's session (DB's: the directory read)", async () => {
    const w = await createWorkplace();
    const d1Bookmark = d1Part((await shiftState(w)).headers.get("X-D1-Bookmark")!);
    for (const sent of [`DB:${d1Bookmark}`, d1Bookmark]) {
      const res = await recordingRequest("GET", `${w.punchPath}/shift-state`, { token: w.token, headers: { "X-D1-Bookmark": sent } });
      expect(res.status, sent).toBe(200);
      expect(res.sessionsOn).toEqual([{ shard: "DB_SHARD_2", anchor: "first-unconstrained" }]);
      expect(res.directorySessions).toEqual([{ shard: "DB", anchor: d1Bookmark }]);
      expect(res.headers.get("X-D1-Bookmark")).toMatch(BOOKMARK);
    }
    const unknown = await recordingRequest("GET", `${w.punchPath}/shift-state`, {
      token: w.token,
      headers: { "X-D1-Bookmark": `DB_GONE:${d1Bookmark}` },
    });
    expect(unknown.status).toBe(200);
    expect(unknown.sessionsOn).toEqual([{ shard: "DB_SHARD_2", anchor: "first-unconstrained" }]);
    expect(unknown.directorySessions).toEqual([DIRECTORY_READ]);
  });

  it("reads and punches start unconstrained (a replica may answer), other writes at the primary", async () => {
    const w = await createWorkplace();
    const read = await recordingRequest("GET", `${w.punchPath}/shift-state`, { token: w.token });
    expect(read.sessions).toEqual(["first-unconstrained"]);
    expect(read.directorySessions).toEqual([DIRECTORY_READ]);
    const punched = await recordingRequest("POST", `${w.punchPath}/clock-in`, { token: w.token, body: { ...HERE, roleId: w.roleId } });
    expect(punched.status).toBe(200);
    expect(punched.sessions).toEqual(["first-unconstrained"]);
    const created = await recordingRequest("POST", `/api/organizations/${w.org.id}/roles`, {
      token: w.org.adminToken,
      body: { name: "Barista" },
    });
    expect(created.status).toBe(201);
    expect(created.sessions).toEqual(["first-primary"]);
    // Choosing the shard reads the directory on a replica, whatever the request does.
    expect(created.directorySessions).toEqual([DIRECTORY_READ]);
  });

  it("a punch writes in one round trip: its only statements that write are one batch", async () => {
    const w = await createWorkplace();
    const res = await recordingRequest("POST", `${w.punchPath}/clock-in`, { token: w.token, body: { ...HERE, roleId: w.roleId } });
    expect(res.status).toBe(200);
    const writes = res.trips.filter((trip) => trip.some((sql) => /^\s*(insert|update|delete)\b/i.test(sql)));
    expect(writes).toHaveLength(1);
    // Plus one replica-eligible round trip to the directory, which names the organization's shard.
    expect(res.directoryTrips).toEqual([[expect.stringMatching(/FROM "organization_directory"/)]]);
  });

  it("an invalid X-D1-Bookmark is 400 INVALID_D1_BOOKMARK and the punch writes nothing", async () => {
    const w = await createWorkplace();
    for (const bookmark of [
      "garbage",
      "",
      "00000000-00000001-00000000",
      "DB_SHARD_2:garbage",
      `DB_SHARD_2:${"0".repeat(8)}`,
      "a b:00000000-00000000-00000000-00000000000000000000000000000000",
    ]) {
      const res = await clockIn(w, {}, { "X-D1-Bookmark": bookmark });
      expect(res.status, JSON.stringify(bookmark)).toBe(400);
      expect(res.body.code).toBe("INVALID_D1_BOOKMARK");
    }
    expect(await openShifts(w)).toBe(0);
  });

  it("browsers may read X-D1-Bookmark (CORS exposes it)", async () => {
    const w = await createWorkplace();
    const res = await shiftState(w, { Origin: "https://app.example" });
    expect(res.headers.get("Access-Control-Expose-Headers")).toContain("X-D1-Bookmark");
  });

  it("the OpenAPI document declares the header both ways and the 400 code", async () => {
    const doc = (await api("GET", "/api/openapi.json")).body;
    expect(doc.components.headers["X-D1-Bookmark"]).toBeDefined();
    expect(doc.components.parameters.D1Bookmark.name).toBe("X-D1-Bookmark");
    const op = (Object.values(doc.paths) as any[]).find((p) => p.get?.operationId === "getShiftState").get;
    expect(op.responses["200"].headers["X-D1-Bookmark"]).toEqual({ $ref: "#/components/headers/X-D1-Bookmark" });
    expect(op.parameters).toContainEqual({ $ref: "#/components/parameters/D1Bookmark" });
    expect(op.responses["400"]["x-problem-codes"]).toContain("INVALID_D1_BOOKMARK");
  });
});

describe("a punch whose read was stale", () => {
  it("still refuses a double clock-in: the write batch's guard answers 409 SHIFT_ALREADY_OPEN", async () => {
    const w = await createWorkplace();
    // The read saw no open shift (as a lagging replica would); another clock-in lands before the write.
    const res = await requestWithInterference(
      "POST",
      `${w.punchPath}/clock-in`,
      { token: w.token, body: { ...HERE, roleId: w.roleId } },
      {
        before: /^insert into "shifts"/i,
        meanwhile: async () => expect((await clockIn(w)).status).toBe(200),
      },
    );
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("SHIFT_ALREADY_OPEN");
    expect(await openShifts(w)).toBe(1);
  });
});
