import { beforeAll, describe, expect, it } from "vitest";
import { changes, type Snapshot, snapshot } from "../helpers/db-snapshot";
import { documentMismatch } from "../helpers/document-match";
import { sendToWorker } from "../helpers/fuzz-harness";
import { loadDocument, type WalkedOperation, walk } from "../helpers/openapi-walk";
import { createRecordFixture, type RecordFixture } from "../helpers/record-fixture";
import { validWrite, WITHOUT_EVENT } from "../helpers/valid-writes";

const document = await loadDocument();
const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);
/** Writes that change no organization's records: the token exchange. */
const NOT_ORGANIZATION_CHANGES = new Set(["POST /api/auth/exchangeToken"]);
/** Tables of bookkeeping, not of the organization's records: a write that changed only these is no change. */
const BOOKKEEPING = /\.(events|idempotency_keys|write_guards|webhook_deliveries|organization_directory)$/;

const LAST = [
  "DELETE /api/organizations/{organization_id}/staffmembers/{id}",
  "DELETE /api/organizations/{organization_id}/roles/{id}",
  "DELETE /api/organizations/{organization_id}/access-roles/{id}",
  "DELETE /api/organizations/{organization_id}/locations/{id}",
  "DELETE /api/organizations/{organization_id}",
];

const writes = walk(document)
  .filter((op) => WRITES.has(op.method) && !op.isPublic && !NOT_ORGANIZATION_CHANGES.has(op.name))
  // Deletions last, deepest paths first (a schedule entry before its location), the fixture's staff member, roles
  // and location after every record that names them, the organization's own at the very end.
  .sort((a, b) => rank(a) - rank(b));

function rank(op: WalkedOperation) {
  if (LAST.includes(op.name)) return 1_000 + LAST.indexOf(op.name);
  return op.method === "DELETE" ? 100 - op.path.split("/").length : 0;
}

/** Events on every shard: a write may record its event in another organization (one it creates). */
const events = (rows: Snapshot) => [...rows].filter(([table]) => table.endsWith(".events")).reduce((sum, [, { count }]) => sum + count, 0);

let fixture: RecordFixture;
beforeAll(async () => {
  fixture = await createRecordFixture();
}, 30_000);

describe("every change is an event", () => {
  it("every write operation of the document answers 2xx with its valid example, as documented, and records an event", async () => {
    const failed: string[] = [];
    const silent: string[] = [];
    const recorded: string[] = [];
    const checked: string[] = [];
    for (const op of writes) {
      let call: Awaited<ReturnType<typeof validWrite>>;
      try {
        call = await validWrite(document, op, fixture);
      } catch (error) {
        failed.push(`${op.name}: ${(error as Error).message}`);
        continue;
      }
      const before = await snapshot();
      const res = await sendToWorker(call.request, call.token);
      const mismatch = documentMismatch(op.name, res);
      if (mismatch) failed.push(mismatch);
      if (res.status < 200 || res.status >= 300) {
        if (!mismatch) failed.push(`${op.name} answered ${res.status}: ${res.text.slice(0, 300)}`);
        continue;
      }
      checked.push(`${res.status} ${op.name}`);
      const after = await snapshot();
      const changed = changes(before, after).filter((table) => !BOOKKEEPING.test(table.split(":")[0]!));
      const isSilent = changed.length > 0 && events(after) <= events(before);
      if (WITHOUT_EVENT.has(op.name)) {
        if (!isSilent) recorded.push(op.name);
      } else if (isSilent) silent.push(`${op.name} answered ${res.status}, changed ${changed.join(", ")}`);
    }
    console.log(`every write, checked (${checked.length} of ${writes.length}):\n  ${checked.join("\n  ")}`);
    // Every write succeeds with its example (test/helpers/valid-writes.ts): none is skipped.
    expect(failed).toEqual([]);
    expect(checked).toHaveLength(writes.length);
    expect(silent).toEqual([]);
    expect(recorded, "these record an event now: take them off WITHOUT_EVENT").toEqual([]);
  }, 180_000);
});
