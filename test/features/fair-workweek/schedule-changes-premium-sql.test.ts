import { sql } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createDatabase } from "@/data/client";
import { addedPremiumSql } from "@/data/fair-workweek/published-additions.data";
import { type AddedPremiumBand, addedPremiumBands, addedPremiumOf, type PremiumOwed } from "@/domain/fair-workweek/change-premium";
import { RULE_PACK_IDS, rulePack } from "@/domain/fair-workweek/packs";
import { tenantDb } from "../../helpers/shards";

/*
 * One premium builder: the publish prices its ADDED changes in SQL (addedPremiumSql) from the same bands the dry run
 * and every other write price with in TypeScript (addedPremiumOf). SQLite's answer for random entries — any instant,
 * notice inside the window or before the publish, any length to the millisecond — is addedPremiumOf's at the notice
 * and length the change log records (whole minutes of notice, truncated and at least 0; the length rounded half up).
 */

const MINUTE = 60_000;

type Row = { start: number; end: number };

/** What SQLite answers for each row: the premium's three columns, in row order. */
async function pricedInSql(bands: readonly AddedPremiumBand[], at: number, rows: readonly Row[]) {
  const premium = addedPremiumSql(bands, at);
  const result = await createDatabase(tenantDb()).all<{ hours: number | null; amount: number | null; rule: string | null }>(
    sql`SELECT ${premium.hours} AS hours, ${premium.amount} AS amount, ${premium.rule} AS rule
      FROM (SELECT j.key AS position, json_extract(j.value, '$.start') AS start_at, json_extract(j.value, '$.end') AS end_at
        FROM json_each(${JSON.stringify(rows)}) AS j) ORDER BY position`,
  );
  return result.map((r): PremiumOwed | null => (r.rule === null ? null : { hours: r.hours, amount: r.amount, rule: r.rule }));
}

const pricedInDomain = (bands: readonly AddedPremiumBand[], at: number, rows: readonly Row[]) =>
  rows.map(({ start, end }) => addedPremiumOf(bands, Math.max(0, Math.trunc((start - at) / MINUTE)), Math.round((end - start) / MINUTE)));

/** Entries inside the notice window of `days` days as seen at `at` (and a few already started). */
const rowsInside = (days: number) =>
  fc.array(
    fc.record({
      notice: fc.oneof(
        fc.integer({ min: -2 * 60 * MINUTE, max: days * 24 * 60 * MINUTE - 1 }),
        // Near the bands' edges: whole days and whole minutes, a millisecond either side.
        fc
          .tuple(fc.integer({ min: 0, max: days }), fc.integer({ min: -2, max: 2 }))
          .map(([d, ms]) => Math.max(0, d * 24 * 60 * MINUTE + ms)),
      ),
      length: fc.oneof(
        fc.integer({ min: 1, max: 16 * 60 * MINUTE }),
        fc.tuple(fc.integer({ min: 1, max: 16 * 60 }), fc.integer({ min: -1, max: 1 })).map(([m, ms]) => m * MINUTE + MINUTE / 2 + ms),
      ),
    }),
    { minLength: 1, maxLength: 120 },
  );

describe("addedPremiumSql prices as addedPremiumOf (properties, evaluated by SQLite)", () => {
  const packs = RULE_PACK_IDS.flatMap((id) => {
    const pack = rulePack(id, "2026-12-01");
    return pack ? [pack] : [];
  });

  it.each(packs.map((p) => [p.id, p] as const))("%s's bands, random instants, notices and lengths", async (_, pack) => {
    const bands = addedPremiumBands(pack);
    const window = Math.ceil(pack.noticeDays * 24 * 60) * MINUTE;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1_700_000_000_000, max: 1_900_000_000_000 }), rowsInside(pack.noticeDays), async (at, drawn) => {
        const rows = drawn.filter((r) => r.notice < window).map((r) => ({ start: at + r.notice, end: at + r.notice + r.length }));
        expect(await pricedInSql(bands, at, rows)).toEqual(pricedInDomain(bands, at, rows));
      }),
      { numRuns: 25 },
    );
  });

  it("random band tables (fractional bounds, lengths by band, bands without a premium)", async () => {
    const bound = fc.oneof(fc.integer({ min: 0, max: 20_160 }), fc.double({ min: 0, max: 20_160, noNaN: true }));
    const premium = fc.option(
      fc.oneof(
        fc.record({ hours: fc.constant(null), amount: fc.integer({ min: 1, max: 100 }), rule: fc.constant("X.FLAT") }),
        fc.record({ hours: fc.double({ min: 0.25, max: 4, noNaN: true }), amount: fc.constant(null), rule: fc.constant("X.HOURS") }),
      ),
    );
    const bands = fc.array(
      fc.record({ minNoticeMinutes: bound, maxNoticeMinutes: bound, longerThan: fc.option(bound), atMost: fc.option(bound), premium }),
      { minLength: 1, maxLength: 5 },
    );
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1_700_000_000_000, max: 1_900_000_000_000 }), bands, rowsInside(14), async (at, table, drawn) => {
        const rows = drawn.map((r) => ({ start: at + r.notice, end: at + r.notice + r.length }));
        expect(await pricedInSql(table, at, rows)).toEqual(pricedInDomain(table, at, rows));
      }),
      { numRuns: 150 },
    );
  });

  it("by hand: Seattle, 3 days' notice, 8 hours: one hour at the regular rate; NYC, 8 days: $10; 3 days: $15", async () => {
    const at = Date.parse("2026-12-01T12:00:00Z");
    const row = (days: number) => [{ start: at + days * 24 * 60 * MINUTE, end: at + days * 24 * 60 * MINUTE + 8 * 60 * MINUTE }];
    const seattle = addedPremiumBands(rulePack("SEATTLE", "2026-12-01")!);
    expect(await pricedInSql(seattle, at, row(3))).toEqual([{ hours: 1, amount: null, rule: expect.stringMatching(/^SEATTLE\./) }]);
    const nyc = addedPremiumBands(rulePack("NYC_FAST_FOOD", "2026-12-01")!);
    expect((await pricedInSql(nyc, at, row(8)))[0]?.amount).toBe(10);
    expect((await pricedInSql(nyc, at, row(3)))[0]?.amount).toBe(15);
  });
});
