import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { EVENT_TYPES, REMOVED_EVENT_TYPES } from "@/data/outbox/outbox";
import { TRUST_FLAGS } from "@/domain/trust";
import { PROBLEM_CODES, type ProblemCode } from "@/problems/codes";
import { DOCUMENT_URL, type OpenApiDocument, type Operation, openApiDocument, operations, resolveParameter } from "./openapi-document";

const SRC = join(import.meta.dirname, "../../src");
const registered = Object.keys(PROBLEM_CODES) as ProblemCode[];
const headerNames = (response: { headers?: Record<string, unknown> }) => Object.keys(response.headers ?? {});
const successes = (operation: Operation) => Object.entries(operation.responses).filter(([s]) => s.startsWith("2"));
const errors = (operation: Operation) => Object.entries(operation.responses).filter(([s]) => s.startsWith("4"));
const isSecured = (operation: Operation, document: OpenApiDocument) =>
  (operation.security ?? document.security ?? []).some((requirement) => Object.keys(requirement).length > 0);

/** Lists that stay unpaged say so, and why they are bounded, in these words. */
const NOT_PAGED = /Not paged: /;
/**
 * A POST that answers a long-lived secret (a device token) takes no Idempotency-Key, so the secret is never stored
 * for replay; its description says so and why a retry is safe.
 */
const NO_IDEMPOTENCY_KEY = /No Idempotency-Key: /;

/** Whether the operation's 200 answers a JSON array: a list, which must be paged or bounded. */
function answersArray(document: OpenApiDocument, operation: Operation) {
  let schema = operation.responses["200"]?.content?.["application/json"]?.schema as Record<string, any> | undefined;
  for (let depth = 0; typeof schema?.$ref === "string" && depth < 10; depth++) {
    schema = document.components.schemas[schema.$ref.replace("#/components/schemas/", "")];
  }
  return schema?.type === "array";
}

/** Everything each operation must declare about headers, idempotency and problems; one line per gap. */
function contractGaps(document: OpenApiDocument): string[] {
  const gaps: string[] = [];
  for (const { path, method, operation } of operations(document)) {
    const name = `${method.toUpperCase()} ${path}`;
    const need = (what: string, ok: boolean) => ok || gaps.push(`${name}: ${what}`);
    const parameters = (operation.parameters ?? []).map((p) => resolveParameter(document, p));
    for (const [status, response] of Object.entries(operation.responses)) {
      need(`X-Request-Id on ${status}`, headerNames(response).includes("X-Request-Id"));
    }
    if (parameters.some((p) => p.in === "query" && (p.name === "cursor" || p.name === "after"))) {
      for (const [status, response] of successes(operation)) need(`Link on ${status}`, headerNames(response).includes("Link"));
    }
    if (method === "get" && answersArray(document, operation)) {
      need(
        "paging (a cursor or after) or a description saying why it is not paged",
        parameters.some((p) => p.name === "cursor" || p.name === "after") || NOT_PAGED.test(operation.description ?? ""),
      );
    }
    if (method === "post" && isSecured(operation, document) && !NO_IDEMPOTENCY_KEY.test(operation.description ?? "")) {
      const key = parameters.find((p) => p.in === "header" && p.name === "Idempotency-Key");
      need("an Idempotency-Key header of 1–255 characters", key?.schema?.minLength === 1 && key.schema.maxLength === 255);
      for (const [status, response] of successes(operation)) {
        need(`Idempotent-Replayed on ${status}`, headerNames(response).includes("Idempotent-Replayed"));
      }
      need(
        "409 IDEMPOTENCY_REQUEST_IN_PROGRESS",
        Boolean(operation.responses["409"]?.["x-problem-codes"]?.includes("IDEMPOTENCY_REQUEST_IN_PROGRESS")),
      );
      need("422 IDEMPOTENCY_KEY_REUSED", Boolean(operation.responses["422"]?.["x-problem-codes"]?.includes("IDEMPOTENCY_KEY_REUSED")));
    }
    for (const [status, response] of errors(operation)) {
      const schema = response.content?.["application/problem+json"]?.schema as { allOf?: Record<string, any>[] } | undefined;
      const base = schema?.allOf?.[0]?.$ref as string | undefined;
      const problemLike =
        base === "#/components/schemas/Problem" ||
        (base !== undefined && document.components.schemas[base.split("/").pop()!]?.allOf?.[0]?.$ref === "#/components/schemas/Problem");
      need(`${status} references the Problem schema`, problemLike);
      const codes = response["x-problem-codes"] ?? [];
      need(`${status} lists its codes`, codes.length > 0);
      for (const code of codes) {
        need(
          `${status} code ${code} is registered with that status`,
          (PROBLEM_CODES[code as ProblemCode]?.statuses as readonly number[] | undefined)?.includes(Number(status)) ?? false,
        );
        need(`${status} describes ${code}`, Boolean(response.description?.includes(`\`${code}\``)));
      }
      need(`${status} narrows code to its list`, JSON.stringify(schema?.allOf?.[1]?.properties?.code?.enum) === JSON.stringify(codes));
    }
  }
  return gaps;
}

/** Schema components that admit null at their top level: a nullable reference must put null beside the $ref. */
const nullableComponents = (document: OpenApiDocument) =>
  Object.entries(document.components.schemas)
    .filter(
      ([, schema]) =>
        (Array.isArray(schema.type) && schema.type.includes("null")) ||
        schema.nullable === true ||
        JSON.stringify(schema.allOf ?? []).includes('"null"'),
    )
    .map(([name]) => name);

/** Request-body fields that are both required and defaulted: a generated client would demand what the server fills in. */
function requiredDefaults(document: OpenApiDocument): string[] {
  const found: string[] = [];
  const walk = (schema: unknown, at: string) => {
    if (!schema || typeof schema !== "object") return;
    const object = schema as Record<string, any>;
    for (const [key, property] of Object.entries<Record<string, unknown>>(object.properties ?? {})) {
      if (property && "default" in property && (object.required ?? []).includes(key)) found.push(`${at}.${key}`);
    }
    for (const [key, value] of Object.entries(object)) walk(value, `${at}.${key}`);
  };
  for (const [name, body] of Object.entries(document.components.requestBodies ?? {})) walk(body, name);
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : [],
  );
}

describe("the OpenAPI document declares what the code does", () => {
  let document: OpenApiDocument;
  beforeAll(async () => {
    ({ document } = await openApiDocument());
  });

  it("declares every event type under the top-level webhooks, its data a schema of the document", () => {
    const hooks = (document as unknown as { webhooks: Record<string, any> }).webhooks;
    // The removed types stay, deprecated, saying since when and what replaces them (events recorded before stay in the feed).
    expect(Object.keys(hooks).sort()).toEqual([...EVENT_TYPES, ...REMOVED_EVENT_TYPES].sort());
    for (const type of REMOVED_EVENT_TYPES) {
      expect(hooks[type].post.deprecated, type).toBe(true);
      expect(hooks[type].post.description, type).toMatch(/^Removed on \d{4}-\d{2}-\d{2}: .*replaced by /);
    }
    for (const [type, hook] of Object.entries(hooks)) {
      const [envelope, typed] = hook.post.requestBody.content["application/json"].schema.allOf;
      expect(envelope.$ref, type).toBe("#/components/schemas/Event");
      expect(typed.properties.type.const).toBe(type);
      const ref = typed.properties.data.$ref as string | undefined;
      if (ref) expect(document.components.schemas[ref.replace("#/components/schemas/", "")], `${type}: ${ref}`).toBeDefined();
    }
  });

  it("names the origin that served it as its server", () => {
    expect(document.servers).toEqual([{ url: new URL(DOCUMENT_URL).origin, description: "This server" }]);
  });

  it("every operation declares X-Request-Id, its list Link, its Idempotency-Key and problems with their codes", () => {
    expect(contractGaps(document)).toEqual([]);
  });

  it("the walk reports an operation stripped of its headers, idempotency and codes", () => {
    const broken = structuredClone(document);
    const post = [...operations(broken)].find((o) => o.method === "post" && o.path.endsWith("/locations"))!;
    const list = [...operations(broken)].find((o) => o.method === "get" && o.path.endsWith("/locations"))!;
    post.operation.parameters = [];
    delete post.operation.responses["422"];
    delete post.operation.responses["201"]!.headers;
    delete list.operation.responses["200"]!.headers;
    post.operation.responses["404"]!["x-problem-codes"] = ["SHIFT_ALREADY_OPEN"];
    const name = (o: typeof post) => `${o.method.toUpperCase()} ${o.path}`;
    expect(contractGaps(broken)).toEqual(
      expect.arrayContaining([
        `${name(post)}: an Idempotency-Key header of 1–255 characters`,
        `${name(post)}: 422 IDEMPOTENCY_KEY_REUSED`,
        `${name(post)}: Idempotent-Replayed on 201`,
        `${name(post)}: X-Request-Id on 201`,
        `${name(post)}: 404 code SHIFT_ALREADY_OPEN is registered with that status`,
        `${name(list)}: Link on 200`,
      ]),
    );
  });

  it("Problem.code is the registry's codes, each used by the source", () => {
    expect(document.components.schemas.Problem!.properties.code.enum).toEqual(registered);
    const source = sourceFiles(SRC)
      .filter((file) => !file.endsWith("problem-codes.ts"))
      .map((file) => readFileSync(file, "utf8"))
      .join("\n");
    const unused = registered.filter((code) => {
      const resource = PROBLEM_CODES[code].resource;
      return !source.includes(`"${code}"`) && !(resource && source.includes(`"${resource}"`));
    });
    expect(unused).toEqual([]);
  });

  it("trust flags are an enum of the five flags", () => {
    expect(document.components.schemas.TrustFlag!.enum).toEqual([...TRUST_FLAGS]);
    expect(document.components.schemas.Shift!.properties.flags.items).toEqual({ $ref: "#/components/schemas/TrustFlag" });
  });

  it("no component is nullable by itself; a nullable shift references Shift beside null", () => {
    expect(nullableComponents(document)).toEqual([]);
    expect(document.components.schemas.ShiftState!.properties.openShift).toEqual({
      anyOf: [{ $ref: "#/components/schemas/Shift" }, { type: "null" }],
    });
    const broken = structuredClone(document);
    broken.components.schemas.Shift!.type = ["object", "null"];
    expect(nullableComponents(broken)).toEqual(["Shift"]);
  });

  it("request bodies are input: a defaulted field is optional and shows its default", () => {
    expect(requiredDefaults(document)).toEqual([]);
    const organization = document.components.requestBodies!.OrganizationCreate!.content["application/json"]!.schema;
    expect(organization.properties.timezone.default).toBe("UTC");
    expect(organization.required).not.toContain("timezone");
    const broken = structuredClone(document);
    broken.components.requestBodies!.OrganizationCreate!.content["application/json"]!.schema.required.push("timezone");
    expect(requiredDefaults(broken)).toEqual(["OrganizationCreate.content.application/json.schema.timezone"]);
  });

  it("query booleans are the words true and false, and query numbers are integers", () => {
    const loose: string[] = [];
    for (const { path, method, operation } of operations(document)) {
      for (const parameter of (operation.parameters ?? []).map((p) => resolveParameter(document, p))) {
        if (parameter.in !== "query") continue;
        const schema = parameter.schema ?? {};
        const name = `${method.toUpperCase()} ${path} ?${parameter.name}`;
        if (schema.type === "boolean") loose.push(`${name}: boolean`);
        if (
          ["includeDeleted", "flagged", "open", "active"].includes(parameter.name) &&
          JSON.stringify(schema.enum) !== '["true","false"]'
        ) {
          loose.push(`${name}: not enum true/false`);
        }
        if (["limit", "page"].includes(parameter.name) && schema.type !== "integer") loose.push(`${name}: not an integer`);
      }
    }
    expect(loose).toEqual([]);
  });
});
