import { api } from "./api";

export type Schema = Record<string, any>;

export interface Parameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  schema: Schema;
}

export interface WalkedOperation {
  /** `GET /api/...`, as test names and failure messages print it. */
  name: string;
  method: string;
  path: string;
  operation: Schema;
  pathParams: Parameter[];
  queryParams: Parameter[];
  /** The resolved JSON schema of the request body, if the operation takes one. */
  body: Schema | undefined;
  /** The media types of a body that is not JSON (a kiosk photo's image types), if the operation takes one. */
  rawBodyTypes: string[];
  isPublic: boolean;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, Schema>>;
  components: { schemas: Record<string, Schema>; requestBodies?: Record<string, Schema>; parameters?: Record<string, Parameter> };
  security?: unknown[];
}

const METHODS = ["get", "put", "post", "delete", "patch"] as const;

/** The document as the Worker serves it. */
export async function loadDocument(): Promise<OpenApiDocument> {
  const res = await api("GET", "/api/openapi.json");
  if (res.status !== 200) throw new Error(`GET /api/openapi.json: ${res.status}`);
  return res.body;
}

/** Follows `$ref`s into components (one level at a time, as often as needed). */
export function resolve(document: OpenApiDocument, schema: Schema | undefined): Schema {
  let current = schema ?? {};
  for (let depth = 0; typeof current.$ref === "string" && depth < 20; depth++) {
    const name = current.$ref.replace("#/components/schemas/", "");
    current = document.components.schemas[name] ?? {};
  }
  return current;
}

export function walk(document: OpenApiDocument): WalkedOperation[] {
  const walked: WalkedOperation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const parameters = ((operation.parameters ?? []) as (Parameter | { $ref: string })[]).map((p) =>
        "$ref" in p ? document.components.parameters![p.$ref.replace("#/components/parameters/", "")]! : p,
      );
      const requestBody = operation.requestBody?.$ref
        ? document.components.requestBodies?.[operation.requestBody.$ref.replace("#/components/requestBodies/", "")]
        : operation.requestBody;
      const bodySchema = requestBody?.content?.["application/json"]?.schema;
      walked.push({
        name: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        operation,
        pathParams: parameters.filter((p) => p.in === "path"),
        queryParams: parameters.filter((p) => p.in === "query"),
        body: bodySchema ? resolve(document, bodySchema) : undefined,
        rawBodyTypes: Object.keys(requestBody?.content ?? {}).filter((type) => type !== "application/json"),
        isPublic: Array.isArray(operation.security) && operation.security.length === 0,
      });
    }
  }
  return walked;
}

/**
 * What names a path parameter's record: the literal segments between the previous parameter and it, e.g.
 * `locations` for `{id}` in `/organizations/{organization_id}/locations/{id}`, `locations/external` for
 * `{externalId}` in `…/locations/external/{externalId}`, `breaks` for `{breakId}`.
 */
export function paramKey(path: string, param: string): string {
  const segments = path.split("/").filter(Boolean);
  const at = segments.indexOf(`{${param}}`);
  const literal: string[] = [];
  for (let i = at - 1; i >= 0 && !segments[i]!.startsWith("{"); i--) literal.unshift(segments[i]!);
  return literal.filter((s) => s !== "api").join("/");
}

/** A plausible value for a schema: its example, default or first enum value, else one of its type. */
export function exampleValue(document: OpenApiDocument, raw: Schema): unknown {
  const schema = resolve(document, raw);
  if (schema.example !== undefined) return schema.example;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum) return (schema.enum as unknown[]).find((v) => v !== null) ?? null;
  const alternative = (schema.anyOf ?? schema.oneOf)?.[0];
  if (alternative) return exampleValue(document, alternative);
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== "null") : schema.type;
  if (type === "object" || schema.properties) {
    // The required properties; with none (a PATCH), the first one, since an empty change is refused.
    const properties = Object.entries((schema.properties ?? {}) as Record<string, Schema>);
    const required = new Set<string>(schema.required ?? []);
    const chosen = required.size > 0 ? properties.filter(([name]) => required.has(name)) : properties.slice(0, 1);
    return Object.fromEntries(chosen.map(([name, property]) => [name, exampleValue(document, property)]));
  }
  if (type === "array") return [];
  if (type === "boolean") return false;
  if (type === "integer" || type === "number") return schema.minimum ?? 1;
  if (schema.format === "date") return "2026-03-14";
  if (schema.format === "date-time") return "2026-03-14T09:00:00Z";
  return "x";
}

/** Percent-encodes one path segment; a lone surrogate goes out as the invalid UTF-8 bytes a careless client sends. */
function encodeSegment(value: string) {
  try {
    return encodeURIComponent(value);
  } catch {
    const wellFormed = value.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");
    return encodeURIComponent(wellFormed).replaceAll("%EF%BF%BD", "%ED%A0%80");
  }
}

export const fillPath = (path: string, values: Record<string, string>) =>
  path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeSegment(values[name] ?? ""));
