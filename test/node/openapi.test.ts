import SwaggerParser from "@apidevtools/swagger-parser";
import { describe, expect, it } from "vitest";
import { type OpenApiDocument, type Operation, openApiDocument, operations } from "./openapi-document";

const isSecured = (operation: Operation, document: OpenApiDocument) =>
  (operation.security ?? document.security ?? []).some((requirement) => Object.keys(requirement).length > 0);

/** What an operation must declare: its identity, and every error the platform can answer it with. */
function missingDeclarations(document: OpenApiDocument): string[] {
  const declaredTags = new Set((document.tags ?? []).map((tag) => tag.name));
  const missing: string[] = [];
  for (const { path, method, operation } of operations(document)) {
    const name = `${method.toUpperCase()} ${path}`;
    const statuses = new Set(Object.keys(operation.responses ?? {}));
    const need = (what: string, ok: boolean) => ok || missing.push(`${name}: ${what}`);
    need("operationId", Boolean(operation.operationId));
    need("summary", Boolean(operation.summary?.trim()));
    need("a tag", (operation.tags?.length ?? 0) > 0);
    for (const tag of operation.tags ?? []) need(`tag '${tag}' declared in the document's tags`, declaredTags.has(tag));
    if (isSecured(operation, document)) for (const s of ["401", "403", "429"]) need(`a ${s} response`, statuses.has(s));
    if (path.includes("{")) need("a 404 response", statuses.has("404"));
    if (operation.requestBody) for (const s of ["400", "413", "415"]) need(`a ${s} response`, statuses.has(s));
    for (const status of statuses) {
      if (status.startsWith("4")) {
        need(`${status} as application/problem+json`, Boolean(operation.responses[status]?.content?.["application/problem+json"]));
      }
    }
  }
  return missing;
}

describe("GET /api/openapi.json", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const { document } = await openApiDocument();
    expect(document.openapi).toMatch(/^3\.1\./);
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeTruthy();
    const broken = structuredClone(document);
    broken.paths["/api/broken"] = { get: { responses: "none" as never } };
    await expect(SwaggerParser.validate(broken as never)).rejects.toThrow();
  });

  it("every operation has an operationId, a summary, a tag and its error responses", async () => {
    const { document } = await openApiDocument();
    expect([...operations(document)].length).toBeGreaterThan(10);
    expect(missingDeclarations(document)).toEqual([]);
  });

  it("the walk reports an operation stripped of its errors and identity", async () => {
    const { document } = await openApiDocument();
    const broken = structuredClone(document);
    const target = [...operations(broken)].find((o) => o.path.includes("{") && o.operation.requestBody)!;
    delete target.operation.operationId;
    target.operation.tags = [];
    for (const status of ["400", "401", "403", "404"]) delete target.operation.responses[status];
    const name = `${target.method.toUpperCase()} ${target.path}`;
    expect(missingDeclarations(broken)).toEqual(
      expect.arrayContaining(
        ["operationId", "a tag", "a 401 response", "a 403 response", "a 404 response", "a 400 response"].map((what) => `${name}: ${what}`),
      ),
    );
  });
});
