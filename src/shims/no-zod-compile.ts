// Stands in for zod's ahead-of-time compiler (core/compile.js, ≈31 KiB minified) in the deployed bundle (wrangler.toml
// [alias]): nothing here calls it, and the parsers it generates need `new Function`, which Workers refuse. zod's entry
// points re-export these names, so they exist. `compile` answers as the real one does when it cannot compile: with the
// schema unchanged, on zod's runtime parser.
export const INVALID = Symbol.for("zod.compile.invalid");
export class ZodCompileAsyncError extends Error {}
export class ZodCompileUnsupportedError extends Error {}
export const compile = <T>(schema: T): T => schema;
const notBundled = (): never => {
  throw new Error("zod's compiler is not bundled (wrangler.toml [alias])");
};
export const withParser = notBundled;
export const compileFn = notBundled;
