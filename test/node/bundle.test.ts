import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unstable_readConfig } from "wrangler";

interface Metafile {
  inputs: Record<string, { imports: { path: string; kind: string; original?: string }[] }>;
  outputs: Record<string, { imports: { path: string; kind: string }[]; inputs: Record<string, unknown> }>;
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

/** The output modules an output's static imports reach: what workerd compiles when it registers the Worker. */
function compiledAtStartup(meta: Metafile, entry: string): string[] {
  const reached = new Set([entry]);
  for (const path of reached) {
    for (const { path: imported, kind } of meta.outputs[path]?.imports ?? []) {
      if (kind === "import-statement" && imported in meta.outputs) reached.add(imported);
    }
  }
  return [...reached];
}

describe("the deployed Worker (scripts/build-worker.mjs, wrangler.toml [build])", () => {
  const work = mkdtempSync(join(tmpdir(), "shiftline-bundle-"));
  const out = join(work, "dist");
  let meta: Metafile;

  beforeAll(() => {
    execFileSync(process.execPath, ["scripts/build-worker.mjs", "--outdir", out], { stdio: "pipe" });
    meta = JSON.parse(readFileSync(join(out, "meta.json"), "utf8")) as Metafile;
  }, 180_000);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("compiles at startup only the modules the entry imports statically: no feature, job, holidays, RE2 or MCP", () => {
    const entry = Object.keys(meta.outputs).find((path) => path.endsWith("/worker.mjs"))!;
    const compiled = compiledAtStartup(meta, entry);
    // Each lazily imported part is a module of its own, so the startup modules are a part of the whole.
    expect(compiled.length).toBeGreaterThan(1);
    expect(compiled.length).toBeLessThan(Object.keys(meta.outputs).filter((path) => path.endsWith(".mjs")).length / 4);
    const inputs = compiled.flatMap((output) => Object.keys(meta.outputs[output]!.inputs));
    expect(inputs.some((path) => path.includes("node_modules/hono/"))).toBe(true);
    expect(
      inputs.filter((path) =>
        /src\/(features|jobs|events)\/|node_modules\/(date-holidays|moment|astronomia|re2js|@modelcontextprotocol)/.test(path),
      ),
    ).toEqual([]);
  });

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
    const textModules = readdirSync(join(out, "chunks")).filter((name) => name.endsWith(".json"));
    expect(textModules.sort()).toEqual(["holidays.json", "latest.json"]);
    // Imported from dist/chunks/, where they are: only modules written there import them.
    const importers = Object.entries(meta.outputs)
      .filter(([, { imports }]) => imports.some(({ path }) => path.endsWith(".json")))
      .map(([path]) => path);
    expect(importers.length).toBeGreaterThan(0);
    expect(importers.filter((path) => !path.includes("/chunks/"))).toEqual([]);
  });
});
