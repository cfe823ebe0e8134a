// Builds the deployed Worker (wrangler.toml `[build]`, run by `wrangler dev` and `wrangler deploy`) into dist/: the
// entry and one ES module per lazily imported part (each feature, each job, the document, the MCP SDK, public
// holidays), shared code in chunks. Wrangler's own bundling puts everything in one script, lazy parts included
// (workers-sdk#2672), and a fresh isolate compiles that whole script at startup; workerd compiles a separate module
// only when it is first imported (issue 45 item 7, docs/PERFORMANCE.md "Cold start"). So this is wrangler's esbuild
// build with esbuild's code splitting on, and wrangler uploads dist/ as it is (`no_bundle`).
//
// wrangler.toml keeps the settings wrangler's bundling shares (`wrangler dev <entry> --bundle`): the [alias] stand-ins
// and the Text [[rules]] (those files are written beside the modules and imported as Text modules). Writes dist/meta.json,
// esbuild's metafile, for test/node/bundle.test.ts and scripts/startup-and-bundle.mjs. `--outdir <dir>` builds elsewhere,
// `--entry <file>` another entry the same way (test/node/holiday-data-bundle.test.ts).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, join, matchesGlob, resolve } from "node:path";
import * as esbuild from "esbuild";
import { unstable_readConfig } from "wrangler";

const root = resolve(import.meta.dirname, "..");
const flag = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : process.argv[index + 1];
};
const outdir = resolve(root, flag("outdir", "dist"));
const entry = resolve(root, flag("entry", join("src", "worker.ts")));
const config = unstable_readConfig({ config: join(root, "wrangler.toml") });

/** wrangler.toml [alias]: each specifier replaced wherever it is written, exactly as wrangler does. */
const aliasPlugin = {
  name: "wrangler-toml-alias",
  setup(build) {
    for (const [from, to] of Object.entries(config.alias ?? {})) {
      const exactly = new RegExp(`^${from.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}$`);
      build.onResolve({ filter: exactly }, () => ({ path: resolve(root, to) }));
    }
  },
};

/** wrangler.toml's Text [[rules]]: the file (JSON, minified) is written into dist/ and imported from there as a Text module. */
const textModulesPlugin = {
  name: "wrangler-toml-text-rules",
  setup(build) {
    const globs = (config.rules ?? []).filter(({ type }) => type === "Text").flatMap(({ globs }) => globs);
    build.onResolve({ filter: /\.json$/ }, ({ path, resolveDir }) => {
      const file = resolve(resolveDir, path);
      if (!globs.some((glob) => matchesGlob(file, glob))) return undefined;
      writeFileSync(join(outdir, "chunks", basename(file)), JSON.stringify(JSON.parse(readFileSync(file, "utf8"))));
      return { path: `./${basename(file)}`, external: true };
    });
  },
};

rmSync(outdir, { recursive: true, force: true });
mkdirSync(join(outdir, "chunks"), { recursive: true });
const result = await esbuild.build({
  entryPoints: { worker: entry },
  absWorkingDir: root,
  bundle: true,
  splitting: true,
  format: "esm",
  outdir,
  outExtension: { ".js": ".mjs" },
  // Every module but the entry in dist/chunks/ (wrangler.toml [[rules]] names them there), the Text modules too.
  entryNames: "[name]",
  chunkNames: "chunks/[name]-[hash]",
  // As wrangler builds (its COMMON_ESBUILD_OPTIONS, getBuildConditions, getBuildPlatform).
  target: "es2024",
  supported: { "import-source": true, using: true },
  loader: { ".js": "jsx", ".mjs": "jsx", ".cjs": "jsx" },
  conditions: ["workerd", "worker", "browser"],
  platform: "browser",
  external: ["cloudflare:*", "node:*"],
  define: { "process.env.NODE_ENV": JSON.stringify(process.env.NODE_ENV ?? "production") },
  // Smaller upload and faster parse at cold start (`npm run measure:startup`); the source maps keep production stack
  // traces readable. Without keepNames: esbuild would wrap ≈1,200 functions and classes to keep their `.name` (≈13 KiB
  // gzip), and nothing here reads one: errors carry explicit codes and are matched with instanceof.
  minify: true,
  keepNames: false,
  sourcemap: true,
  metafile: true,
  plugins: [aliasPlugin, textModulesPlugin],
  logLevel: "warning",
});
writeFileSync(join(outdir, "meta.json"), JSON.stringify(result.metafile));
