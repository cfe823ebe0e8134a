import { beforeAll, describe, expect, it } from "vitest";
import { changes, snapshot } from "./helpers/db-snapshot";
import { sendToWorker } from "./helpers/fuzz-harness";
import { loadDocument, type WalkedOperation, walk } from "./helpers/openapi-walk";
import { createRecordFixture, type RecordFixture } from "./helpers/record-fixture";
import { tenantDb } from "./helpers/shards";
import { recordRequest } from "./helpers/tenancy-matrix";

const document = await loadDocument();
const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);
/** Writes that change no organization's records: the token exchange. */
const NOT_ORGANIZATION_CHANGES = new Set(["POST /api/auth/exchangeToken"]);
/** Tables of bookkeeping, not of the organization's records: a write that changed only these is no change. */
const BOOKKEEPING = /\.(events|idempotency_keys|write_guards|webhook_deliveries|organization_directory)$/;

const writes = walk(document)
  .filter((op) => WRITES.has(op.method) && !op.isPublic && !NOT_ORGANIZATION_CHANGES.has(op.name))
  // Deletions last, the organization's own at the very end: every other write needs its records.
  .sort((a, b) => rank(a) - rank(b));

function rank(op: WalkedOperation) {
  if (op.name === "DELETE /api/organizations/{organization_id}" || op.name.startsWith("DELETE /api/organizations/external/")) return 3;
  return op.method === "DELETE" ? 2 : 1;
}

let fixture: RecordFixture;
beforeAll(async () => {
  fixture = await createRecordFixture();
}, 30_000);

const eventCount = async (organizationId: string) =>
  (await tenantDb().prepare("SELECT count(*) AS n FROM events WHERE organization_id = ?").bind(organizationId).first<{ n: number }>())!.n;

describe("every change is an event", () => {
  it("every write operation of the document that answers 2xx and changes a record records an event", async () => {
    const silent: string[] = [];
    const answered: string[] = [];
    for (const op of writes) {
      const before = await eventCount(fixture.org.id);
      const rows = await snapshot();
      const request = recordRequest(document, op, fixture);
      const res = await sendToWorker(
        {
          ...request,
          query: [
            ...request.query,
            ...(op.path.startsWith("/api/timesheets") ? [["organizationId", fixture.org.id] as [string, string]] : []),
          ],
        },
        fixture.org.adminToken,
      );
      if (res.status < 200 || res.status >= 300) continue;
      answered.push(op.name);
      const changed = changes(rows, await snapshot()).filter((table) => !BOOKKEEPING.test(table.split(":")[0]!));
      if (changed.length > 0 && (await eventCount(fixture.org.id)) === before)
        silent.push(`${op.name} answered ${res.status}, changed ${changed.join(", ")}`);
    }
    // The walk reaches most writes with the document's examples and the fixture's ids; the rest have tests of their own.
    expect(answered.length).toBeGreaterThanOrEqual(30);
    expect(silent).toEqual([]);
  }, 120_000);
});
