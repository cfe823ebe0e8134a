import { execFile } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { lintFromString, loadConfig } from "@redocly/openapi-core";
import { beforeAll, describe, expect, it } from "vitest";
import { type OpenApiDocument, openApiDocument, operations } from "./openapi-document";

const ROOT = join(import.meta.dirname, "../..");

async function redoclyFindings(source: string): Promise<string[]> {
  const config = await loadConfig({ configPath: join(ROOT, "redocly.yaml") });
  const problems = await lintFromString({ source, absoluteRef: "openapi.json", config });
  return problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} (${p.location[0]?.pointer ?? "?"})`);
}

interface SpectralResult {
  code: string;
  message: string;
  severity: number;
  path: string[];
}

/** Spectral's own CLI with the repository's ruleset; both documents are linted in one run (it takes seconds). */
async function spectralFindings(documents: Record<string, OpenApiDocument>): Promise<Record<string, string[]>> {
  const dir = await mkdtemp(join(tmpdir(), "spectral-"));
  const files = await Promise.all(
    Object.entries(documents).map(async ([name, document]) => {
      const file = join(dir, `${name}.json`);
      await writeFile(file, JSON.stringify(document));
      return [name, file] as const;
    }),
  );
  const { stdout } = await promisify(execFile)(
    join(ROOT, "node_modules/.bin/spectral"),
    [
      "lint",
      "--ruleset",
      join(ROOT, ".spectral.yaml"),
      "--format",
      "json",
      "--fail-severity",
      "error",
      "--quiet",
      ...files.map(([, f]) => f),
    ],
    { cwd: ROOT },
  ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? "[]" }));
  const results = JSON.parse(stdout || "[]") as (SpectralResult & { source: string })[];
  return Object.fromEntries(
    files.map(([name, file]) => [
      name,
      results.filter((r) => r.source === file).map((r) => `${r.code}: ${r.message} (${r.path.join(".")})`),
    ]),
  );
}

describe("the OpenAPI document under Redocly and Spectral", () => {
  let document: OpenApiDocument;
  let text: string;
  beforeAll(async () => {
    ({ document, text } = await openApiDocument());
  });

  it("passes Redocly's recommended rules (redocly.yaml) with no error and no warning", async () => {
    expect(await redoclyFindings(text)).toEqual([]);
  });

  it("Redocly's rules do fail a broken document (the check above can fail)", async () => {
    const broken = structuredClone(document);
    const [first, second] = [...operations(broken)];
    second!.operation.operationId = first!.operation.operationId;
    broken.servers = [{ url: "http://localhost:8787" }];
    const findings = await redoclyFindings(JSON.stringify(broken));
    expect(findings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^error operation-operationId-unique/),
        expect.stringMatching(/^warn no-server-example\.com/),
      ]),
    );
  });

  it("passes Spectral's spectral:oas rules (.spectral.yaml) with no error and no warning, and Spectral does catch warnings", async () => {
    const broken = structuredClone(document) as OpenApiDocument & { info: { contact?: unknown } };
    delete broken.info.contact;
    delete [...operations(broken)][0]!.operation.description;
    const findings = await spectralFindings({ served: document, broken });
    expect(findings.served).toEqual([]);
    expect(findings.broken).toEqual(
      expect.arrayContaining([expect.stringMatching(/^info-contact/), expect.stringMatching(/^operation-description/)]),
    );
  });
});
