import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import { generateTypes } from "../../sdk/generate";
import { type OpenApiDocument, openApiDocument } from "./openapi-document";

const ROOT = join(import.meta.dirname, "../..");
const EXAMPLES = join(ROOT, "examples");
const CLIENT_SOURCE = readFileSync(join(EXAMPLES, "client.ts"), "utf8");

const OPTIONS: ts.CompilerOptions = {
  strict: true,
  noUncheckedIndexedAccess: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  lib: ["lib.es2023.d.ts", "lib.dom.d.ts"],
  types: [],
  skipLibCheck: true,
  noEmit: true,
};

/** openapi-typescript with its defaults, as an integrator runs it: the SDK's own generation step. */
const generate = (document: OpenApiDocument) => generateTypes(document);

/**
 * tsc --strict on examples/client.ts against the types generated from each document, in one program: each variant
 * is served from memory as `examples/<variant>/client.ts` beside its `api-types.ts`. Every diagnostic, by variant.
 */
async function typeCheckClient(documents: Record<string, OpenApiDocument>): Promise<Record<string, string[]>> {
  const files = new Map<string, string>();
  for (const [variant, document] of Object.entries(documents)) {
    files.set(join(EXAMPLES, variant, "client.ts"), CLIENT_SOURCE);
    files.set(join(EXAMPLES, variant, "api-types.ts"), await generate(document));
  }
  const host = ts.createCompilerHost(OPTIONS);
  const { fileExists, readFile, getSourceFile } = host;
  const directories = new Set(Object.keys(documents).map((variant) => join(EXAMPLES, variant)));
  host.directoryExists = (dir) => directories.has(dir) || ts.sys.directoryExists(dir);
  host.fileExists = (file) => files.has(file) || fileExists.call(host, file);
  host.readFile = (file) => files.get(file) ?? readFile.call(host, file);
  host.getSourceFile = (file, language, onError, create) => {
    const text = files.get(file);
    return text === undefined ? getSourceFile.call(host, file, language, onError, create) : ts.createSourceFile(file, text, language);
  };
  const roots = [...files.keys()].filter((file) => file.endsWith("client.ts"));
  const diagnostics = ts.getPreEmitDiagnostics(ts.createProgram(roots, OPTIONS, host));
  return Object.fromEntries(
    Object.keys(documents).map((variant) => [
      variant,
      diagnostics
        .filter((d) => d.file?.fileName.startsWith(join(EXAMPLES, variant, "/")) ?? true)
        .map((d) => `${d.file?.fileName.slice(EXAMPLES.length + 1) ?? ""}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`),
    ]),
  );
}

/** `x as T`, `<T>x` and `x!` in a program: what an integrator should never need against a precise document. */
function castsIn(source: string): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    const isConst = ts.isAsExpression(node) && ts.isTypeReferenceNode(node.type) && node.type.getText() === "const";
    if ((ts.isAsExpression(node) && !isConst) || ts.isTypeAssertionExpression(node) || ts.isNonNullExpression(node)) {
      found.push(node.getText());
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile("client.ts", source, ts.ScriptTarget.ES2022, true));
  return found;
}

describe("a client generated from the document (examples/client.ts)", () => {
  let results: Record<string, string[]>;
  beforeAll(async () => {
    const { document } = await openApiDocument();
    // The two leaks this guards against: a shared Shift component made nullable, and a request body read through a
    // schema component, where openapi-typescript makes every field with a default required.
    const nullableShift = structuredClone(document);
    nullableShift.components.schemas.Shift!.type = ["object", "null"];
    const defaultsAsOutput = structuredClone(document);
    const body = defaultsAsOutput.components.requestBodies!.OrganizationCreate!.content["application/json"]!;
    defaultsAsOutput.components.schemas.OrganizationCreate = body.schema;
    body.schema = { $ref: "#/components/schemas/OrganizationCreate" };
    results = await typeCheckClient({ served: document, nullableShift, defaultsAsOutput });
  }, 180_000);

  it("type-checks under --strict with no casts and no non-null assertions", () => {
    expect(castsIn("const a = b as string; const c = d as const; e!.f;")).toEqual(["b as string", "e!"]);
    expect(castsIn(CLIENT_SOURCE)).toEqual([]);
    expect(results.served).toEqual([]);
  });

  it("fails when a shift becomes nullable or a defaulted input required (the check can fail)", () => {
    expect(results.nullableShift!.join("\n")).toMatch(/possibly 'null'/);
    // Both defaulted inputs of OrganizationCreate (timezone, dataRegion) turn required.
    expect(results.defaultsAsOutput!.join("\n")).toMatch(/missing the following properties [^\n]*: timezone, dataRegion/);
  });
});
