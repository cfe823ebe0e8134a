import { partnerTokenUses } from "@db/schema";
import { lte } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDatabase } from "@/data/client";
import { recordTokenUse } from "@/data/partner-token-uses";

// A token use is recorded by SQL written out once (data/partner-token-uses, issue 45 item 7): it must send exactly what
// drizzle builds from the table for the same values (the token exchange tests exercise its answers, replays included).

const expiresAt = new Date("2026-12-06T19:00:00.000Z");
const now = new Date("2026-12-06T18:00:00.000Z");

/** A D1 client that answers nothing and keeps what it was sent. */
function recordingClient() {
  const sent: { sql: string; params: unknown[] }[] = [];
  const client = {
    prepare: (sql: string) => ({
      bind: (...params: unknown[]) => ({
        all: async () => {
          sent.push({ sql, params });
          return { results: [{ jti: "jti-1" }], success: true, meta: {} };
        },
      }),
    }),
  };
  return { db: createDatabase(client as unknown as D1Database), sent };
}

describe("the written-out token use", () => {
  it("sends the SQL and values drizzle builds for the conditional insert", async () => {
    const { db, sent } = recordingClient();
    expect(await recordTokenUse(db, "dev-partner", "jti-1", expiresAt, now)).toBe(true);
    const built = db
      .insert(partnerTokenUses)
      .values({ partnerId: "dev-partner", jti: "jti-1", expiresAt })
      .onConflictDoUpdate({
        target: [partnerTokenUses.partnerId, partnerTokenUses.jti],
        set: { expiresAt },
        setWhere: lte(partnerTokenUses.expiresAt, now),
      })
      .returning({ jti: partnerTokenUses.jti })
      .toSQL();
    expect(sent).toEqual([{ sql: built.sql, params: built.params }]);
    // The instants bound as D1 stores them: epoch milliseconds (expiry twice, then now).
    expect(sent[0]?.params).toEqual(["dev-partner", "jti-1", 1_796_583_600_000, 1_796_583_600_000, 1_796_580_000_000]);
  });
});
