import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import standaloneCode from "ajv/dist/standalone/index.js";
import addFormats from "ajv-formats";
import { openApiDocument } from "../node/openapi-document";

/**
 * Vitest global setup of the worker projects (runs in node): builds the served document and writes
 * test/.generated/response-validators.js, one precompiled Ajv (JSON Schema 2020-12) validator per response
 * schema and, per operation and status, its media types and declared problem codes. workerd forbids code
 * generation from strings, so the worker tests import this module (test/helpers/document-match.ts) instead of
 * compiling. Rewritten only when the document changed.
 */
export const GENERATED = join(import.meta.dirname, "..", ".generated", "response-validators.js");

type Json = Record<string, any>;

const METHODS = ["get", "put", "post", "delete", "patch"];
const pointer = (...segments: string[]) => segments.map((s) => s.replaceAll("~", "~0").replaceAll("/", "~1")).join("/");

export function generate(document: Json): string {
  // `unicode: false`: lengths in UTF-16 code units, as zod's min/max count them.
  const ajv = new Ajv2020({ strict: false, inlineRefs: false, unicode: false, code: { source: true, esm: true } });
  addFormats(ajv);
  ajv.addSchema(document, "doc");
  const exports: Record<string, string> = {};
  const bySchema = new Map<string, string>();
  const operations: Json = {};
  for (const [path, item] of Object.entries(document.paths as Json)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const responses: Json = {};
      for (const [status, response] of Object.entries(operation.responses as Json)) {
        const media: Json = {};
        for (const [type, content] of Object.entries((response.content ?? {}) as Json)) {
          if (!type.includes("json") || !content.schema) {
            media[type] = null;
            continue;
          }
          const key = JSON.stringify(content.schema);
          let name = bySchema.get(key);
          if (!name) {
            name = `v${bySchema.size}`;
            bySchema.set(key, name);
            ajv.addSchema({ $ref: `doc#/${pointer("paths", path, method, "responses", status, "content", type, "schema")}` }, name);
            exports[name] = name;
          }
          media[type] = name;
        }
        responses[status] = { media, ...(response["x-problem-codes"] ? { codes: response["x-problem-codes"] } : {}) };
      }
      operations[`${method.toUpperCase()} ${path}`] = responses;
    }
  }
  // Ajv's ESM output still `require`s its format functions: imported instead, as workerd has no `require`.
  const modules: string[] = [];
  const code = standaloneCode(ajv, exports).replace(/require\("([^"]+)"\)/g, (_, specifier: string) => {
    if (!modules.includes(specifier)) modules.push(specifier);
    return `module${modules.indexOf(specifier)}`;
  });
  const imports = modules.map((specifier, i) => `import module${i} from "${specifier}";\n`).join("");
  const table = Object.keys(exports).map((name) => `${name}`);
  return (
    `${imports}${code.replace(/^"use strict";/, "")}\n` +
    `export const validators = { ${table.join(", ")} };\n` +
    `export const operations = ${JSON.stringify(operations)};\n`
  );
}

export default async function setup() {
  const { text, document } = await openApiDocument();
  // The document and this generator: either changing rewrites the module.
  const hash = createHash("sha256")
    .update(text)
    .update(readFileSync(import.meta.filename))
    .digest("hex");
  const stamp = `// sha256 ${hash}\n`;
  let current = "";
  try {
    current = readFileSync(GENERATED, "utf8");
  } catch {}
  if (current.startsWith(stamp)) return;
  mkdirSync(dirname(GENERATED), { recursive: true });
  writeFileSync(GENERATED, stamp + generate(document as Json));
}
