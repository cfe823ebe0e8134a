// What the first request of a cold isolate costs over the same request warm, on a fresh `wrangler dev` each run:
// readiness is polled on a static asset (served without running the Worker), then one token exchange is timed
// first, then the same request `--warm` more times. Prints each run's first and warm median and their difference.
// Used by `npm run measure:startup`; `node scripts/first-request.mjs --runs 5 --warm 20` runs it alone.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { client, expectStatus, partnerToken } from "../bench/lib/api.mjs";
import { freePort, migrate, startWorker, stopAll } from "../bench/lib/servers.mjs";

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

export async function measureFirstRequest({ runs = 5, warm = 20 } = {}) {
  const work = mkdtempSync(join(tmpdir(), "shiftline-first-request-"));
  const persistTo = join(work, "d1");
  const logFile = join(work, "wrangler.log");
  const results = [];
  try {
    await migrate({ config: "wrangler.toml", persistTo, logFile });
    const token = await partnerToken({}, 3600);
    for (let run = 0; run < runs; run++) {
      const server = await startWorker({
        name: `first-request-${run}`,
        config: "wrangler.toml",
        entry: process.env.PROBE_ENTRY,
        persistTo,
        logFile,
        port: await freePort(8871),
        inspectorPort: await freePort(9371),
        vars: { TOKEN_SECRET: randomBytes(32).toString("base64url") },
        readyPath: "/api/docs/scalar.js",
      });
      const request = client(server.url);
      const exchange = async () => {
        const started = performance.now();
        if (process.env.PROBE_PATH) await request("GET", process.env.PROBE_PATH);
        else await expectStatus(request("POST", "/api/auth/exchangeToken", { body: { token } }), 200, "token exchange");
        return performance.now() - started;
      };
      const first = await exchange();
      const warmTimes = [];
      for (let i = 0; i < warm; i++) warmTimes.push(await exchange());
      results.push({ first, warm: median(warmTimes) });
      await server.stop();
    }
  } finally {
    await stopAll();
    rmSync(work, { recursive: true, force: true });
  }
  const added = median(results.map((r) => r.first - r.warm));
  return { results, added };
}

export function printFirstRequest({ results, added }) {
  const runs = results.map((r) => `${r.first.toFixed(1)}/${r.warm.toFixed(1)}`).join(", ");
  console.log(`first request of a fresh wrangler dev (POST /api/auth/exchangeToken), first/warm ms per run: ${runs}`);
  console.log(`the first request of a cold isolate adds: median ${added.toFixed(1)} ms over the same request warm`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const option = (name, fallback) => {
    const index = process.argv.indexOf(`--${name}`);
    return index === -1 ? fallback : Number(process.argv[index + 1]);
  };
  printFirstRequest(await measureFirstRequest({ runs: option("runs", 5), warm: option("warm", 20) }));
}
