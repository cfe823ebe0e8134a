import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Holidays from "date-holidays";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Unstable_DevWorker, unstable_dev, unstable_readConfig } from "wrangler";

// The deployed Worker ships date-holidays' rules and moment-timezone's zones as Text modules through two stand-ins
// (wrangler.toml [alias] and [[rules]], docs/PERFORMANCE.md). A Worker built the same way (scripts/build-worker.mjs),
// under workerd, must answer the holidays the library answers unchanged in Node: the dates, names and types from the
// rules, and the instants each starts and ends, which come from the zones (Japan's equinox days are computed in
// Asia/Tokyo).
describe("public holidays in the deployed bundle (Text modules through the [alias] stand-ins)", () => {
  const work = mkdtempSync(join(tmpdir(), "shiftline-holiday-bundle-"));
  let worker: Unstable_DevWorker;

  beforeAll(async () => {
    // Built as the deployed Worker is (wrangler.toml [build]), uploaded as built (its `no_bundle` and [[rules]]).
    const dist = join(work, "dist");
    execFileSync(process.execPath, ["scripts/build-worker.mjs", "--entry", "test/node/fixtures/holidays-worker.ts", "--outdir", dist]);
    const config = unstable_readConfig({ config: "wrangler.toml" });
    const configPath = join(work, "wrangler.json");
    writeFileSync(
      configPath,
      JSON.stringify({
        name: "holiday-data-bundle",
        main: join(dist, "worker.mjs"),
        compatibility_date: config.compatibility_date,
        compatibility_flags: config.compatibility_flags,
        no_bundle: true,
        base_dir: dist,
        rules: config.rules,
      }),
    );
    worker = await unstable_dev(join(dist, "worker.mjs"), {
      config: configPath,
      ip: "127.0.0.1",
      logLevel: "error",
      experimental: { disableExperimentalWarning: true },
    });
  }, 120_000);
  afterAll(async () => {
    await worker?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it.each([
    ["JP", 2027],
    ["DE.BY", 2026],
    ["US.CA", 2027],
    ["AU.NSW", 2026],
    ["GB.SCT", 2027],
    ["NZ", 2026],
  ])("%s %i: the same holidays as the library in Node", async (place, year) => {
    const response = await worker.fetch(`/?place=${place}&year=${year}`);
    expect(response.status).toBe(200);
    const expected = JSON.parse(JSON.stringify(new Holidays(place).getHolidays(year)));
    expect(expected.length).toBeGreaterThan(5);
    expect(await response.json()).toEqual(expected);
  });

  it("Japan's vernal equinox day of 2027 starts at midnight in Tokyo: the zones were loaded", async () => {
    const holidays = (await (await worker.fetch("/?place=JP&year=2027")).json()) as { date: string; start: string }[];
    // National Astronomical Observatory of Japan's 2027 almanac: the vernal equinox falls on 21 March.
    expect(holidays.find(({ date }) => date.startsWith("2027-03-21"))?.start).toBe("2027-03-20T15:00:00.000Z");
  });
});
