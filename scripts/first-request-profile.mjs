// Measurement only: a CPU profile of a cold isolate's first request (a token exchange) under `wrangler dev`, through
// the inspector (bench/lib/profiler.mjs, sampling every --interval µs, 100 by default), then of the same request warm,
// each summarized by self time per function and per group (package, or folder of src/). Only the Worker's isolate is
// sampled: local D1 and the rate limiter run in isolates of their own (scripts/first-request.mjs --bindings-floor).
// `node scripts/first-request-profile.mjs [--runs N] [--entry file] [--out dir]`: with --out, each run's profiles
// (first-N.cpuprofile, warm-N.cpuprofile) and the bundle's source map (bundle-N.js.map) are written there.
import { randomBytes } from "node:crypto";
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { client, expectStatus, partnerToken } from "../bench/lib/api.mjs";
import { selfTime, startProfile } from "../bench/lib/profiler.mjs";
import { freePort, migrate, startWorker, stopAll } from "../bench/lib/servers.mjs";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`);
  return index === -1 ? fallback : args[index + 1];
};
const runs = Number(option("runs", 1));
const entry = option("entry", undefined);
const out = option("out", undefined);
const INTERVAL = Number(option("interval", 100));

/**
 * Self time with each sample's time held to 3 intervals: on a loaded machine a sample taken after the thread waited
 * for a core carries the wait (tens of ms) to whatever function was on the stack.
 */
const print = (label, profile) => {
  const summary = selfTime({ ...profile, timeDeltas: profile.timeDeltas.map((delta) => Math.min(delta, 3 * INTERVAL)) });
  const idle = summary.groups(100).find((row) => row.what === "(idle)")?.ms ?? 0;
  console.log(`\n${label}: ${summary.totalMs.toFixed(1)} ms sampled, ${(summary.totalMs - idle).toFixed(1)} ms not idle`);
  for (const row of summary.groups(18)) console.log(`  ${row.ms.toFixed(2).padStart(7)} ms  ${row.what}`);
  console.log("  functions:");
  for (const row of summary.functions(25)) console.log(`  ${row.ms.toFixed(2).padStart(7)} ms  ${row.what}`);
};

const work = mkdtempSync(join(tmpdir(), "shiftline-first-profile-"));
const persistTo = join(work, "d1");
const logFile = join(work, "wrangler.log");
try {
  await migrate({ config: "wrangler.toml", persistTo, logFile });
  for (let run = 0; run < runs; run++) {
    const server = await startWorker({
      name: "first-request-profile",
      config: "wrangler.toml",
      entry,
      persistTo,
      logFile,
      port: await freePort(8891),
      inspectorPort: await freePort(9391),
      vars: { TOKEN_SECRET: randomBytes(32).toString("base64url") },
      readyPath: "/api/docs/scalar.js",
    });
    try {
      const request = client(server.url);
      const exchange = async () =>
        expectStatus(request("POST", "/api/auth/exchangeToken", { body: { token: await partnerToken({}, 3600) } }), 200, "exchange");
      const token = await partnerToken({}, 3600);
      const profiling = await startProfile(server.inspectorPort, INTERVAL);
      await expectStatus(request("POST", "/api/auth/exchangeToken", { body: { token } }), 200, "exchange");
      const first = await profiling.stop();
      for (let i = 0; i < 5; i++) await exchange();
      const warmToken = await partnerToken({}, 3600);
      const warmProfiling = await startProfile(server.inspectorPort, INTERVAL);
      await expectStatus(request("POST", "/api/auth/exchangeToken", { body: { token: warmToken } }), 200, "exchange");
      const warm = await warmProfiling.stop();
      if (out) {
        writeFileSync(join(out, `first-${run}.cpuprofile`), JSON.stringify({ ...first, sources: undefined }));
        writeFileSync(join(out, `warm-${run}.cpuprofile`), JSON.stringify({ ...warm, sources: undefined }));
        // The bundle's source map (wrangler deletes it with the server): the profiles' positions are in that bundle.
        for (const source of Object.values(first.sources)) {
          const url = /\/\/# sourceURL=(file:\/\/\S+)/.exec(source)?.[1];
          if (url) copyFileSync(`${fileURLToPath(url)}.map`, join(out, `bundle-${run}.js.map`));
        }
      }
      print(`run ${run + 1}, first request (load ${loadavg()[0].toFixed(2)})`, first);
      print(`run ${run + 1}, warm`, warm);
    } finally {
      await server.stop();
    }
  }
} finally {
  await stopAll();
  rmSync(work, { recursive: true, force: true });
}
