// Stands in for `z.fromJSONSchema` (classic/from-json-schema.js, ≈12 KiB minified) in the deployed bundle
// (wrangler.toml [alias]): nothing here builds zod schemas from JSON Schema.
export const fromJSONSchema = (): never => {
  throw new Error("z.fromJSONSchema is not bundled (wrangler.toml [alias])");
};
