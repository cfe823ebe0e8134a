import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unstable_readConfig } from "wrangler";

interface Metafile {
  inputs: Record<string, { imports: { path: string; kind: string; original?: string }[] }>;
}

/** The inputs an entry's static imports reach: what a cold isolate evaluates before its first event. */
function evaluatedAtStartup(meta: Metafile, entry: string): string[] {
  const reached = new Set([entry]);
  for (const path of reached) {
    for (const { path: imported, kind } of meta.inputs[path]?.imports ?? []) {
      if (kind === "import-statement" || kind === "require-call") reached.add(imported);
    }
  }
  return [...reached];
}

const input = (meta: Metafile, suffix: string) => Object.keys(meta.inputs).find((path) => path.endsWith(suffix))!;

describe("the deployed bundle (wrangler deploy --dry-run)", () => {
  const work = mkdtempSync(join(tmpdir(), "shiftline-bundle-"));
  let meta: Metafile;

  beforeAll(() => {
    const metafile = join(work, "meta.json");
    execFileSync(join("node_modules", ".bin", "wrangler"), ["deploy", "--dry-run", "--outdir", join(work, "out"), "--metafile", metafile], {
      stdio: "pipe",
      env: { ...process.env, WRANGLER_SEND_METRICS: "false", NO_COLOR: "1" },
    });
    meta = JSON.parse(readFileSync(metafile, "utf8")) as Metafile;
  }, 180_000);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("evaluates the platform at isolate startup and no feature: each waits for its first request", () => {
    const atStartup = evaluatedAtStartup(meta, input(meta, "src/worker.ts"));
    expect(atStartup.some((path) => path.endsWith("src/app.ts"))).toBe(true);
    expect(atStartup.filter((path) => path.includes("src/features/"))).toEqual([]);
    // The background jobs (webhook delivery serializes through every feature's serializers) wait for their event.
    expect(atStartup.filter((path) => /src\/(jobs|events)\//.test(path))).toEqual([]);
    // Nor what only the document needs: its finalizer and the event types' schemas wait for GET /api/openapi.json.
    expect(atStartup.filter((path) => /src\/(platform\/openapi\/finalize|event-forms\/)/.test(path))).toEqual([]);
  });

  it("the table of features loads none of them: a request imports its own feature on first use", () => {
    const fromApp = evaluatedAtStartup(meta, input(meta, "src/app.ts"));
    expect(fromApp.some((path) => path.includes("node_modules/zod/"))).toBe(true);
    expect(fromApp.filter((path) => path.includes("src/features/"))).toEqual([]);
    const fromFeature = evaluatedAtStartup(meta, input(meta, "src/features/time-tracking/time-tracking.index.ts"));
    expect(fromFeature.some((path) => path.includes("src/features/time-tracking/"))).toBe(true);
    expect(fromFeature.filter((path) => /src\/features\/(scheduling|time-off|webhooks)\//.test(path))).toEqual([]);
    // A punch reads custom fields but rarely checks a pattern: the RE2 engine waits for the first pattern compiled.
    expect(fromFeature.filter((path) => path.includes("node_modules/re2js/"))).toEqual([]);
  });

  it("imports the MCP SDK on the first /mcp request only: neither at startup nor with the /mcp feature's router", () => {
    const mcp = (path: string) => path.includes("node_modules/@modelcontextprotocol/");
    expect(evaluatedAtStartup(meta, input(meta, "src/worker.ts")).filter(mcp)).toEqual([]);
    expect(evaluatedAtStartup(meta, input(meta, "src/features/mcp/mcp.index.ts")).filter(mcp)).toEqual([]);
    expect(evaluatedAtStartup(meta, input(meta, "src/features/mcp/mcp-server.ts")).some(mcp)).toBe(true);
    // Nor its default validator, Ajv: the server passes its own (wrangler.toml [alias]).
    expect(Object.keys(meta.inputs).filter((path) => path.includes("node_modules/ajv/"))).toEqual([]);
  });

  it("replaces through each [alias] only the modules of the package it was written for, and each alias still applies", () => {
    // Wrangler matches a specifier wherever it is written: each must be imported, and only by its owner.
    const owners: Record<string, RegExp> = {
      "../locales/index.js": /node_modules\/zod\//,
      "./compile.js": /node_modules\/zod\//,
      "./from-json-schema.js": /node_modules\/zod\//,
      "../validation/ajv-provider.js": /node_modules\/@modelcontextprotocol\/sdk\/dist\/esm\/server\//,
      "./data.js": /node_modules\/date-holidays\/src\/Holidays\.js$/,
      "moment-timezone": /node_modules\/(date-holidays-parser|caldate)\//,
    };
    const aliases = Object.keys(unstable_readConfig({ config: "wrangler.toml" }).alias ?? {});
    expect(aliases.sort()).toEqual(Object.keys(owners).sort());
    for (const specifier of aliases) {
      const importers = Object.entries(meta.inputs)
        .filter(([, { imports }]) => imports.some((i) => i.original === specifier))
        .map(([path]) => path);
      expect(importers, specifier).not.toEqual([]);
      expect(
        importers.filter((path) => !owners[specifier]!.test(path)),
        specifier,
      ).toEqual([]);
    }
  });

  it("ships public holidays' data as Text modules, not as script a cold isolate parses", () => {
    // test/node/holiday-data-bundle.test.ts checks that the holidays answered are the library's own.
    const script = Object.keys(meta.inputs);
    expect(script.filter((path) => /date-holidays\/src\/data\.js|moment-timezone\/(index\.js|data\/)|\.json$/.test(path))).toEqual([]);
    const textModules = readdirSync(join(work, "out")).filter((name) => name.endsWith(".json"));
    expect(textModules.map((name) => name.replace(/^[0-9a-f]+-/, "")).sort()).toEqual(["holidays.json", "latest.json"]);
  });
});
