// Measures what a cold isolate costs and what a deploy ships, offline:
// 1. scripts/build-worker.mjs (the deployed build, esbuild's metafile): raw and gzip size of the modules, of those
//    workerd compiles at startup (the entry's static imports), of the Text modules, and the largest inputs;
// 2. `wrangler deploy --dry-run --outfile` then `wrangler check startup --worker` on that bundle, N times: the median
//    "Active" startup CPU of the local profile. No account or network is needed for either.
// 3. The same for scripts/startup-eager.ts (the Worker with its app built at startup), built the same way and
//    interleaved run by run with 2. The difference is what the first request of a cold isolate pays to build the app
//    (src/worker.ts defers it).
// 4. scripts/first-request.mjs: the first request of a fresh `wrangler dev` against the same request warm, beside a
//    frameworkless Worker's (what wrangler and workerd add to any first request), in wall time and in workerd's CPU
//    time, and whether issue 45's budget holds (the first request at most 25 ms more than warm).
// The CPU figures are sampled wall time of the isolate's thread: they grow with the machine's load, printed alongside.
// Flags: --runs <n> (default 5), --top <n>.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { unstable_readConfig } from "wrangler";
import { measureFirstRequest, printFirstRequest } from "./first-request.mjs";

const root = join(import.meta.dirname, "..");
/** Issue 45 item 7: a fresh isolate's startup CPU, `wrangler check startup`'s "Active". */
const STARTUP_BUDGET_MS = 60;
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`);
  return index === -1 ? fallback : Number(args[index + 1]);
};
const runs = option("runs", 5);
const top = option("top", 8);

const wrangler = (...wranglerArgs) =>
  execFileSync(join(root, "node_modules", ".bin", "wrangler"), wranglerArgs, {
    cwd: root,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false", NO_COLOR: "1" },
  });

const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");

/** The output modules the entry's static imports reach: what workerd compiles when it registers the Worker. */
const compiledAtStartup = (meta, entry) => {
  const reached = new Set([entry]);
  for (const path of reached) {
    for (const { path: imported, kind } of meta.outputs[path]?.imports ?? []) {
      if (kind === "import-statement" && imported in meta.outputs) reached.add(imported);
    }
  }
  return reached;
};

/** Builds `entry` as the deployed Worker is (scripts/build-worker.mjs) into `dist`, and its upload as one file. */
const build = (entry, dist) => {
  execFileSync(process.execPath, [join(root, "scripts", "build-worker.mjs"), "--entry", entry, "--outdir", dist]);
  const config = unstable_readConfig({ config: join(root, "wrangler.toml") });
  const configPath = join(dist, "..", `${basename(dist)}.wrangler.json`);
  const { compatibility_date, compatibility_flags, rules } = config;
  const main = join(dist, "worker.mjs");
  writeFileSync(
    configPath,
    JSON.stringify({ name: "startup", main, compatibility_date, compatibility_flags, no_bundle: true, base_dir: dist, rules }),
  );
  const bundle = `${dist}.bundle`;
  wrangler("deploy", "--dry-run", "--config", configPath, "--outfile", bundle);
  return { meta: JSON.parse(readFileSync(join(dist, "meta.json"), "utf8")), bundle };
};

/** Groups metafile inputs by package (node_modules) or by top-level source folder; zod's locales apart. */
const inputGroup = (path) => {
  const inModules = path.lastIndexOf("node_modules/");
  if (inModules === -1) return path.split("/").slice(0, 2).join("/");
  const parts = path.slice(inModules + "node_modules/".length).split("/");
  const name = parts.slice(0, parts[0].startsWith("@") ? 2 : 1).join("/");
  return path.includes("/locales/") ? `${name} (locales)` : name;
};

const work = mkdtempSync(join(tmpdir(), "shiftline-startup-"));
try {
  execFileSync(process.execPath, [join(root, "scripts", "copy-docs-assets.mjs")], { stdio: "inherit" });

  const { meta, bundle } = build(join("src", "worker.ts"), join(work, "dist"));
  const { bundle: eagerBundle } = build(join("scripts", "startup-eager.ts"), join(work, "eager"));
  const modules = Object.entries(meta.outputs).filter(([path]) => path.endsWith(".mjs"));
  const entry = modules.find(([path]) => path.endsWith("/worker.mjs"))[0];
  const atStartup = compiledAtStartup(meta, entry);
  const size = (paths) => {
    const texts = paths.map((path) => readFileSync(resolve(root, path)));
    return {
      raw: texts.reduce((sum, text) => sum + text.length, 0),
      gzip: texts.reduce((sum, text) => sum + gzipSync(text, { level: 9 }).length, 0),
    };
  };
  const all = size(modules.map(([path]) => path));
  const startup = size([...atStartup]);
  const textModules = readdirSync(join(work, "dist", "chunks")).filter((name) => name.endsWith(".json"));
  const text = size(textModules.map((name) => join(work, "dist", "chunks", name)));
  const groups = new Map();
  for (const [, { inputs }] of modules) {
    for (const [path, { bytesInOutput }] of Object.entries(inputs)) {
      const group = inputGroup(path);
      groups.set(group, (groups.get(group) ?? 0) + bytesInOutput);
    }
  }

  const startupCpu = (workerBundle, run) => {
    const text = wrangler("check", "startup", "--worker", workerBundle, "--outfile", join(work, `startup-${run}.cpuprofile`));
    const active = /Active:\s*([\d.]+)\s*ms/.exec(text);
    if (!active) throw new Error(`No "Active:" figure in wrangler check startup's output:\n${text}`);
    return Number(active[1]);
  };
  const loadBefore = load();
  const samples = [];
  const eagerSamples = [];
  for (let run = 0; run < runs; run++) {
    samples.push(startupCpu(bundle, run));
    eagerSamples.push(startupCpu(eagerBundle, run));
  }
  const list = (values) => values.map((s) => s.toFixed(1)).join(", ");

  console.log(`build: scripts/build-worker.mjs (esbuild, code splitting, minified), as wrangler.toml [build] runs it`);
  console.log(
    `modules: ${modules.length}, ${kib(all.raw)} raw, ${kib(all.gzip)} gzip (each module gzipped); Text modules ${kib(text.raw)} raw, ${kib(text.gzip)} gzip`,
  );
  console.log(
    `compiled at startup (the entry's static imports): ${atStartup.size} modules, ${kib(startup.raw)} raw, ${kib(startup.gzip)} gzip`,
  );
  console.log(
    `startup CPU: median ${median(samples).toFixed(1)} ms of ${runs} (${list(samples)} ms); ` +
      `budget (issue 45) ${STARTUP_BUDGET_MS} ms: ${median(samples) <= STARTUP_BUDGET_MS ? "met" : "not met"}`,
  );
  console.log(
    `startup CPU with a token exchange's modules evaluated at startup: median ${median(eagerSamples).toFixed(1)} ms (${list(eagerSamples)} ms); ` +
      `the first request of a cold isolate adds ≈ ${(median(eagerSamples) - median(samples)).toFixed(1)} ms`,
  );
  console.log(`load average (1, 5, 15 min): ${loadBefore} before, ${load()} after`);
  console.log(`largest inputs (their bytes in the modules):`);
  for (const [group, bytes] of [...groups].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`  ${kib(bytes).padStart(10)}  ${group}`);
  }
  printFirstRequest(await measureFirstRequest({ runs: Math.max(runs, 9) }));
} catch (error) {
  console.error(error.stderr ?? error.stdout ?? error);
  process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
