// Workers under `wrangler dev` on loopback, each with its own persisted local D1, and their clean shutdown.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, createWriteStream, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { unstable_readConfig } from "wrangler";

export const ROOT = join(import.meta.dirname, "..", "..");
const BIN = join(ROOT, "node_modules", ".bin");
const WRANGLER = join(BIN, "wrangler");
const HOST = "127.0.0.1";

/**
 * No telemetry, and no fetch of the `Request.cf` object from the internet: wrangler uses its placeholder. The
 * project's own Node (the `node` devDependency, in node_modules/.bin) runs wrangler, whatever node started the bench.
 */
const wranglerEnv = () => ({
  ...process.env,
  PATH: `${BIN}${delimiter}${process.env.PATH ?? ""}`,
  WRANGLER_SEND_METRICS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  CI: "true",
  // workerd answers HeapProfiler.collectGarbage never (V8 posts it as a task workerd does not run): the isolate's
  // `gc()` is what the scale scenario's heap figures collect with before each call (bench/lib/profiler.mjs).
  MINIFLARE_WORKERD_V8_FLAGS: "--expose-gc",
  NO_COLOR: "1",
  FORCE_COLOR: "0",
});

/** Every server started and not yet stopped: stopAll() ends them (run.mjs calls it on exit, error and signals). */
const running = new Set();

/** Answers `port` if nothing listens on it, else the next free one above it. */
export async function freePort(preferred, taken = new Set()) {
  for (let port = preferred; port < preferred + 200; port++) {
    if (taken.has(port)) continue;
    const free = await new Promise((resolve) => {
      const probe = createServer();
      probe.once("error", () => resolve(false));
      probe.listen(port, HOST, () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error(`no free port from ${preferred}`);
}

/** Runs wrangler to completion (stdin closed, so it never prompts); throws with its output on failure. */
export function wrangler(args, { logFile, cwd = ROOT } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(WRANGLER, args, { cwd, env: wranglerEnv(), stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("error", reject);
    child.on("close", (code) => {
      if (logFile) createWriteStream(logFile, { flags: "a" }).end(output);
      if (code === 0) resolve(output);
      else reject(new Error(`wrangler ${args.join(" ")} exited ${code}:\n${output.slice(-3000)}`));
    });
  });
}

/**
 * Applies the config's migrations to a local D1 persisted under `persistTo` (a fresh directory per run). Applying them
 * takes wrangler minutes a database on a loaded machine, so the migrated databases are kept once in the temporary
 * directory, named by the hash of the config's databases and every migration's text, and copied on later runs.
 */
export const migrate = async ({ config, persistTo, logFile }) => {
  const databases = unstable_readConfig({ config: resolve(ROOT, config) }).d1_databases;
  const hash = createHash("sha256").update(JSON.stringify(databases));
  for (const dir of new Set(databases.map((d) => d.migrations_dir ?? "migrations"))) {
    const full = join(ROOT, dir);
    if (!existsSync(full)) continue;
    for (const file of readdirSync(full)
      .filter((f) => f.endsWith(".sql"))
      .sort())
      hash.update(file).update(readFileSync(join(full, file)));
  }
  const cached = join(tmpdir(), `shiftline-bench-migrated-${hash.digest("hex").slice(0, 16)}`);
  if (!existsSync(cached)) {
    const fresh = mkdtempSync(`${cached}-`);
    for (const { binding } of databases) {
      await wrangler(["d1", "migrations", "apply", binding, "--local", "--persist-to", fresh, "--config", config], { logFile });
    }
    try {
      renameSync(fresh, cached);
    } catch {
      rmSync(fresh, { recursive: true, force: true }); // another bench kept its copy first
    }
  }
  cpSync(cached, persistTo, { recursive: true });
};

/**
 * Starts `wrangler dev` on 127.0.0.1 and waits until `readyPath` answers 200. The process gets its own process
 * group, so stop() ends wrangler and the workerd it started, and only those.
 */
export async function startWorker({
  name,
  config,
  entry,
  persistTo,
  port,
  inspectorPort,
  vars = {},
  flags = [],
  logFile,
  readyPath = "/api/health",
}) {
  // Without an entry, the config's own: the root wrangler.toml's is the deployed build (scripts/build-worker.mjs). An
  // entry of the bench's or scripts' own is bundled by wrangler, minified as the deployed build is.
  const entryArgs = entry ? [entry, "--bundle", "--minify"] : [];
  const args = ["dev", ...entryArgs, "--config", config, "--ip", HOST, "--port", String(port), ...flags];
  args.push("--inspector-port", String(inspectorPort), "--persist-to", persistTo, "--local");
  args.push("--show-interactive-dev-session=false", "--log-level", "warn");
  for (const [key, value] of Object.entries(vars)) args.push("--var", `${key}:${value}`);

  const log = createWriteStream(logFile, { flags: "a" });
  const child = spawn(WRANGLER, args, { cwd: ROOT, env: wranglerEnv(), stdio: ["ignore", "pipe", "pipe"], detached: true });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  let exited = null;
  const exit = new Promise((resolve) => child.on("exit", (code, signal) => resolve((exited = { code, signal }))));

  const server = {
    name,
    url: `http://${HOST}:${port}`,
    inspectorPort,
    pid: child.pid,
    logFile,
    workerdCpuMs: () => workerdCpuMs(child.pid),
    logTail: (chars = 3000) => {
      try {
        return readFileSync(logFile, "utf8").slice(-chars);
      } catch {
        return "";
      }
    },
    async stop() {
      if (!running.has(server)) return;
      running.delete(server);
      if (exited === null) {
        signalGroup(child.pid, "SIGTERM");
        const stopped = await Promise.race([exit, sleep(8000).then(() => null)]);
        if (stopped === null) {
          signalGroup(child.pid, "SIGKILL");
          await Promise.race([exit, sleep(3000)]);
        }
      }
      // wrangler's own children (workerd) are in the same group: make sure none is left behind.
      signalGroup(child.pid, "SIGKILL");
      log.end();
    },
  };
  running.add(server);

  // A loaded machine (several engineers' tests) may take minutes to start workerd.
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline) {
    if (exited !== null) {
      await server.stop();
      throw new Error(`${name}: wrangler dev exited (${JSON.stringify(exited)}) before answering:\n${server.logTail()}`);
    }
    try {
      const res = await fetch(`${server.url}${readyPath}`, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.status === 200) return server;
    } catch {
      // not listening yet
    }
    await sleep(300);
  }
  await server.stop();
  throw new Error(`${name}: no answer on ${server.url}${readyPath} within 300 s:\n${server.logTail()}`);
}

/**
 * CPU time (user + system, ms) used so far by the workerd processes of a server's process group, every thread:
 * the Worker's isolate, local D1's SQLite (miniflare's Durable Object, same process) and V8's GC threads. Linux's
 * /proc only (null elsewhere); 100 ticks a second.
 */
function workerdCpuMs(groupId) {
  try {
    let ticks = 0;
    for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
      let stat;
      try {
        stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      } catch {
        continue;
      }
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (name === "workerd" && Number(fields[2]) === groupId) ticks += Number(fields[11]) + Number(fields[12]);
    }
    return ticks * 10;
  } catch {
    return null;
  }
}

function signalGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

export async function stopAll() {
  await Promise.all([...running].map((server) => server.stop()));
}
