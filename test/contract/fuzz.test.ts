import { env } from "cloudflare:test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { edgeWrites } from "../helpers/edge-writes";
import { type FuzzResponse, fuzzOperation, histogram, newStats, type Send, sendToWorker } from "../helpers/fuzz-harness";
import { loadDocument, walk } from "../helpers/openapi-walk";
import { createRecordFixture, type RecordFixture } from "../helpers/record-fixture";
import { tenantDb } from "../helpers/shards";
import { accessToken } from "../helpers/tokens";

// Every operation of the served document, fuzzed with invalid input: FUZZ_RUNS=500 npm test runs it longer.
const RUNS = Number(env.FUZZ_RUNS) > 0 ? Number(env.FUZZ_RUNS) : 20;
const SEED = 20261122;
const TIMEOUT = 60_000 + RUNS * 500;
/** Edge writes per operation with a body: each prepares its own records, so fewer than the invalid requests. */
const EDGE_RUNS = Math.max(2, Math.round(RUNS / 10));

const document = await loadDocument();
const operations = walk(document).filter((op) => !op.isPublic);
const stats = newStats();
let fixture: RecordFixture;

beforeAll(async () => {
  fixture = await createRecordFixture();
}, 30_000);

afterAll(() => {
  const modes = [...stats.byMode].map(
    ([mode, counts]) => `  ${mode}: ${histogram(counts)} (${stats.beforeHandler.get(mode) ?? 0} refused before the handler)`,
  );
  console.log(
    `OpenAPI fuzz: ${stats.requests} requests over ${operations.length} operations (${RUNS} runs each, seed ${SEED})\n` +
      `  statuses ${histogram(stats.statuses)}\n${modes.join("\n")}\n` +
      `  unknown references refused for something else: ${stats.notForReferences.length}`,
  );
});

describe("OpenAPI fuzz", () => {
  it("covers the document's authenticated operations", () => {
    expect(operations.length).toBeGreaterThan(50);
  });

  operations.forEach((op, index) => {
    it(`${op.name} answers invalid input with a problem and changes nothing`, { timeout: TIMEOUT }, async () => {
      await fuzzOperation(document, op, fixture, { runs: RUNS, seed: SEED + index, stats });
    });
  });

  it("sends the unknown references past validation: at least 90% of them are refused for their references", (context) => {
    const counts = stats.byMode.get("unknown references");
    // Only when the operations above ran (not under a name filter).
    if (!counts) return context.skip();
    const sent = [...counts.values()].reduce((a, b) => a + b, 0);
    const stopped = stats.notForReferences.length;
    expect(
      (sent - stopped) / sent,
      `${stopped} of ${sent} refused for something else:\n${stats.notForReferences.join("\n")}`,
    ).toBeGreaterThanOrEqual(0.9);
  });
});

describe("OpenAPI fuzz with a read-only token (scopes *:read)", () => {
  let readOnly: RecordFixture;
  beforeAll(async () => {
    readOnly = {
      ...fixture,
      org: { ...fixture.org, adminToken: await accessToken({ organizationId: fixture.org.id, scopes: ["*:read"] }) },
    };
  });
  // Fewer runs: the scope is checked before the input, so every write is refused the same way.
  operations
    .filter((op) => !op.path.startsWith("/api/kiosk/"))
    .forEach((op, index) => {
      it(`${op.name} answers invalid input to a read-only token with a problem and changes nothing`, { timeout: TIMEOUT }, async () => {
        await fuzzOperation(document, op, readOnly, { runs: Math.max(2, Math.round(RUNS / 4)), seed: SEED + index });
      });
    });
});

describe("valid-but-edge writes", () => {
  // Their own organization: these writes succeed, and the fuzzing above counts on the fixture as it was made.
  let edgeFixture: RecordFixture;
  beforeAll(async () => {
    edgeFixture = await createRecordFixture();
  }, 30_000);
  // The syncs last: their edge values (an empty list) may remove the records the other writes use.
  const writes = operations
    .filter((op) => op.body && op.method !== "GET")
    .sort((a, b) => Number(a.path.endsWith("/sync")) - Number(b.path.endsWith("/sync")));

  writes.forEach((op, index) => {
    it(`${op.name} answers edge values with 2xx or a declared 4xx and stays consistent`, { timeout: TIMEOUT }, async () => {
      await edgeWrites(document, op, edgeFixture, { runs: EDGE_RUNS, seed: SEED + index, stats });
    });
  });
});

describe("OpenAPI fuzz harness", () => {
  const target = () => operations.find((op) => op.name === "PATCH /api/organizations/{organization_id}/locations/{id}")!;

  it("fails on a 5xx or a 4xx that is not a problem document", async () => {
    const crashing: Send = async (request, token) => ({ ...(await sendToWorker(request, token)), status: 500 });
    await expect(fuzzOperation(document, target(), fixture, { runs: 5, seed: SEED, send: crashing })).rejects.toThrow(/answered 500/);
    const plain: Send = async (request, token) => ({ ...(await sendToWorker(request, token)), contentType: "text/plain" });
    await expect(fuzzOperation(document, target(), fixture, { runs: 5, seed: SEED, send: plain })).rejects.toThrow(
      /not a problem document/,
    );
  });

  it("fails when a write is accepted or the database changed", async () => {
    const accepting: Send = async (request, token) => ({ ...(await sendToWorker(request, token)), status: 200 });
    await expect(fuzzOperation(document, target(), fixture, { runs: 5, seed: SEED, send: accepting })).rejects.toThrow(
      /accepted an invalid PATCH/,
    );
    const writing: Send = async (request, token) => {
      await tenantDb().prepare("UPDATE locations SET name = name || '!' WHERE id = ?").bind(fixture.ids.locations).run();
      return sendToWorker(request, token);
    };
    await expect(fuzzOperation(document, target(), fixture, { runs: 2, seed: SEED, send: writing })).rejects.toThrow(
      /locations: rows changed/,
    );
  });
});

describe("OpenAPI fuzz against the document", () => {
  const byName = (name: string) => operations.find((op) => op.name === name)!;
  const patchLocation = () => byName("PATCH /api/organizations/{organization_id}/locations/{id}");
  const getLocation = () => byName("GET /api/organizations/{organization_id}/locations/{id}");
  const reshaped =
    (change: (response: FuzzResponse) => FuzzResponse): Send =>
    async (request, token) =>
      change(await sendToWorker(request, token));

  it("fails on a status the operation does not declare", async () => {
    const teapot = reshaped((r) => ({ ...r, status: 418, text: r.text.replace(/"status":\d+/, '"status":418') }));
    await expect(fuzzOperation(document, patchLocation(), fixture, { runs: 3, seed: SEED, send: teapot })).rejects.toThrow(
      /answered 418, not among its declared responses/,
    );
  });

  it("fails on a problem code not declared for its status", async () => {
    const undeclared = reshaped((r) => ({ ...r, text: r.text.replace(/"code":"[A-Z_]+"/, '"code":"NOT_A_DECLARED_CODE"') }));
    await expect(fuzzOperation(document, patchLocation(), fixture, { runs: 3, seed: SEED, send: undeclared })).rejects.toThrow(
      /NOT_A_DECLARED_CODE/,
    );
  });

  it("fails on a 2xx body its response schema refuses", async () => {
    const ok = await sendToWorker(
      { mode: "real ids", method: "GET", path: `/api/organizations/${fixture.org.id}/locations/${fixture.ids.locations}`, query: [] },
      fixture.org.adminToken,
    );
    expect(ok.status).toBe(200);
    const { name: _dropped, ...withoutName } = JSON.parse(ok.text);
    const missing = reshaped(() => ({ ...ok, text: JSON.stringify(withoutName) }));
    await expect(fuzzOperation(document, getLocation(), fixture, { runs: 1, seed: SEED, send: missing })).rejects.toThrow(
      /body its schema refuses: \/ must have required property 'name'/,
    );
  });
});

describe("valid-but-edge writes harness", () => {
  const target = () => operations.find((op) => op.name === "PATCH /api/organizations/{organization_id}/locations/{id}")!;

  it("fails on a 5xx, on a refusal that wrote, and on a change without its event", async () => {
    const crashing: Send = async (request, token) => ({ ...(await sendToWorker(request, token)), status: 500 });
    await expect(edgeWrites(document, target(), fixture, { runs: 1, seed: SEED, send: crashing })).rejects.toThrow(/answered 500/);
    const writingRefusal: Send = async (request) => {
      await tenantDb().prepare("UPDATE locations SET name = name || '!' WHERE id = ?").bind(fixture.ids.locations).run();
      return sendToWorker({ ...request, body: { text: '{"name": 5}', contentType: "application/json" } }, fixture.org.adminToken);
    };
    await expect(edgeWrites(document, target(), fixture, { runs: 1, seed: SEED, send: writingRefusal })).rejects.toThrow(
      /refused with 400 but changed .*locations: rows changed/,
    );
    const silent: Send = async (request, token) => {
      const response = await sendToWorker(request, token);
      await tenantDb().prepare("DELETE FROM events WHERE organization_id = ? AND type = 'location.updated'").bind(fixture.org.id).run();
      return response;
    };
    await expect(edgeWrites(document, target(), fixture, { runs: 1, seed: SEED, send: silent })).rejects.toThrow(/recorded no event/);
  });
});
