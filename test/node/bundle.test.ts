import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
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

  it("replaces through each [alias] only modules zod (or the MCP SDK's server) imports, and each alias still applies", () => {
    const aliases = Object.keys(unstable_readConfig({ config: "wrangler.toml" }).alias ?? {});
    expect(aliases.length).toBeGreaterThan(0);
    for (const specifier of aliases) {
      const importers = Object.entries(meta.inputs)
        .filter(([, { imports }]) => imports.some((i) => i.original === specifier))
        .map(([path]) => path);
      expect(importers, specifier).not.toEqual([]);
      const owner = specifier.includes("ajv-provider") ? "node_modules/@modelcontextprotocol/sdk/dist/esm/server/" : "node_modules/zod/";
      expect(
        importers.filter((path) => !path.includes(owner)),
        specifier,
      ).toEqual([]);
    }
  });
});
