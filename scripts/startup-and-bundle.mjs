// Measures what a cold isolate costs and what a deploy ships, offline:
// 1. `wrangler deploy --dry-run --outdir` (+ esbuild metafile): raw and gzip size of the Worker script, largest inputs;
// 2. `wrangler deploy --dry-run --outfile` then `wrangler check startup --worker` on that bundle, N times: the median
//    "Active" startup CPU of the local profile. No account or network is needed for either.
// 3. The same for scripts/startup-eager.ts (the Worker with its app built at startup), interleaved run by run with 2.
//    The difference is what the first request of a cold isolate pays to build the app (src/worker.ts defers it).
// 4. scripts/first-request.mjs: the first request of a fresh `wrangler dev` against the same request warm, beside a
//    frameworkless Worker's (what wrangler and workerd add to any first request), in wall time and in workerd's CPU
//    time, and whether issue 17's target holds (the first request at most 20 ms more than warm).
// The CPU figures are sampled wall time of the isolate's thread: they grow with the machine's load, printed alongside.
// Flags: --runs <n> (default 5), --minify (adds wrangler's --minify; otherwise wrangler.toml decides), --top <n>.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { measureFirstRequest, printFirstRequest } from "./first-request.mjs";

const root = join(import.meta.dirname, "..");
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`);
  return index === -1 ? fallback : Number(args[index + 1]);
};
const runs = option("runs", 5);
const top = option("top", 8);
const minifyFlag = args.includes("--minify") ? ["--minify"] : [];

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

/** The modules an entry's static imports reach: what evaluates at isolate startup (dynamic imports wait for use). */
const startupModules = (meta, entry) => {
  const reached = new Set([entry]);
  for (const path of reached) {
    for (const { path: imported, kind } of meta.inputs[path]?.imports ?? []) {
      if (kind === "import-statement" || kind === "require-call") reached.add(imported);
    }
  }
  return reached;
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

  const outdir = join(work, "out");
  const metafile = join(work, "meta.json");
  wrangler("deploy", "--dry-run", "--outdir", outdir, "--metafile", metafile, ...minifyFlag);
  const script = readFileSync(join(outdir, "worker.js"));
  const meta = JSON.parse(readFileSync(metafile, "utf8"));
  const output = Object.entries(meta.outputs).find(([path]) => path.endsWith("worker.js"))[1];
  const groups = new Map();
  for (const [path, { bytesInOutput }] of Object.entries(output.inputs)) {
    const group = inputGroup(path);
    groups.set(group, (groups.get(group) ?? 0) + bytesInOutput);
  }

  const entry = Object.keys(meta.inputs).find((path) => path.endsWith("src/worker.ts"));
  const atStartup = startupModules(meta, entry);

  const bundle = join(work, "worker.bundle");
  const eagerBundle = join(work, "eager.bundle");
  wrangler("deploy", "--dry-run", "--outfile", bundle, ...minifyFlag);
  wrangler("deploy", "--dry-run", "--outfile", eagerBundle, ...minifyFlag, join("scripts", "startup-eager.ts"));
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

  console.log(`build: wrangler deploy --dry-run${minifyFlag.length ? " --minify" : ""} (otherwise as wrangler.toml says)`);
  console.log(`bundle: ${kib(script.length)} raw, ${kib(gzipSync(script, { level: 9 }).length)} gzip (worker.js)`);
  console.log(
    `evaluated at startup: ${atStartup.size} of ${Object.keys(meta.inputs).length} bundled modules (${[...atStartup].map(inputGroup).join(", ")})`,
  );
  console.log(`startup CPU: median ${median(samples).toFixed(1)} ms of ${runs} (${list(samples)} ms)`);
  console.log(
    `startup CPU with a token exchange's modules evaluated at startup: median ${median(eagerSamples).toFixed(1)} ms (${list(eagerSamples)} ms); ` +
      `the first request of a cold isolate adds ≈ ${(median(eagerSamples) - median(samples)).toFixed(1)} ms`,
  );
  console.log(`load average (1, 5, 15 min): ${loadBefore} before, ${load()} after`);
  console.log(`largest inputs (their bytes in worker.js):`);
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
