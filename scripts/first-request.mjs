// What the first request of a cold isolate costs over the same request warm, on a fresh `wrangler dev` each run:
// readiness is polled on a static asset (answered without running the Worker), then one request is timed first and
// `--warm` more times. Ours: a token exchange (POST /api/auth/exchangeToken). The floor: a frameworkless Worker
// (scripts/first-request-floor.ts) on the same config, whose first request shows what wrangler and workerd add to any.
// Runs alternate between the two. Used by `npm run measure:startup`; `node scripts/first-request.mjs --runs 5` alone.
// `--bindings-floor` adds a third Worker (scripts/first-request-bindings-floor.ts): the exchange's platform calls
// (rate limiter, D1, WebCrypto) without our code, i.e. what their own first use adds to any first request here.
// Besides the wall time, on Linux: the CPU time workerd's threads spend on the request (/proc/<pid>/task/*/schedstat,
// nanoseconds), which a loaded machine's waiting for a core does not inflate.
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { client, expectStatus, partnerToken } from "../bench/lib/api.mjs";
import { freePort, migrate, startWorker, stopAll } from "../bench/lib/servers.mjs";

/** The budget of issue 45 item 7 (issue 17's was 20): a cold isolate's first request costs at most this much more than warm. */
export const FIRST_REQUEST_TARGET_MS = 25;

/** The workerd processes `wrangler dev` started: its process group (bench/lib/servers.mjs starts each in its own). */
const workerdPids = (group) => {
  try {
    return readdirSync("/proc")
      .filter((entry) => /^\d+$/.test(entry))
      .filter((pid) => {
        try {
          const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
          const processGroup = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
          return processGroup === group && readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "workerd";
        } catch {
          return false;
        }
      });
  } catch {
    return []; // not Linux: wall time only
  }
};

/** CPU milliseconds the processes' threads have run so far. */
const cpuMs = (pids) => {
  let ns = 0;
  for (const pid of pids) {
    try {
      for (const task of readdirSync(`/proc/${pid}/task`))
        ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      // exited
    }
  }
  return ns / 1e6;
};

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

async function firstAndWarm({ entry, persistTo, logFile, warm, send }) {
  const server = await startWorker({
    name: "first-request",
    config: "wrangler.toml",
    entry,
    persistTo,
    logFile,
    port: await freePort(8871),
    inspectorPort: await freePort(9371),
    vars: { TOKEN_SECRET: randomBytes(32).toString("base64url") },
    readyPath: "/api/docs/scalar.js",
  });
  try {
    const request = client(server.url);
    const workerd = workerdPids(server.pid);
    const timed = async () => {
      const cpuBefore = cpuMs(workerd);
      const started = performance.now();
      await send(request);
      return { ms: performance.now() - started, cpu: cpuMs(workerd) - cpuBefore };
    };
    const first = await timed();
    const warmTimes = [];
    for (let i = 0; i < warm; i++) warmTimes.push(await timed());
    return {
      first: first.ms,
      warm: median(warmTimes.map((t) => t.ms)),
      ...(workerd.length > 0 && { cpuFirst: first.cpu, cpuWarm: median(warmTimes.map((t) => t.cpu)) }),
    };
  } finally {
    await server.stop();
  }
}

export async function measureFirstRequest({ runs = 5, warm = 20, bindingsFloor = false } = {}) {
  const work = mkdtempSync(join(tmpdir(), "shiftline-first-request-"));
  const persistTo = join(work, "d1");
  const logFile = join(work, "wrangler.log");
  const ours = [];
  const floor = [];
  const bindings = [];
  try {
    await migrate({ config: "wrangler.toml", persistTo, logFile });
    // Each token is exchanged once (its jti): sign every one the runs send beforehand, outside the timings.
    // The bindings floor's Worker exchanges as many as ours.
    const tokens = await Promise.all(Array.from({ length: runs * (warm + 1) * (bindingsFloor ? 2 : 1) }, () => partnerToken({}, 3600)));
    const exchange = (request) =>
      expectStatus(request("POST", "/api/auth/exchangeToken", { body: { token: tokens.pop() } }), 200, "token exchange");
    for (let run = 0; run < runs; run++) {
      ours.push(await firstAndWarm({ persistTo, logFile, warm, send: exchange }));
      floor.push(await firstAndWarm({ entry: "scripts/first-request-floor.ts", persistTo, logFile, warm, send: (r) => r("GET", "/") }));
      if (bindingsFloor)
        bindings.push(await firstAndWarm({ entry: "scripts/first-request-bindings-floor.ts", persistTo, logFile, warm, send: exchange }));
    }
  } finally {
    await stopAll();
    rmSync(work, { recursive: true, force: true });
  }
  return {
    ours,
    floor,
    bindings,
    added: median(ours.map((r) => r.first - r.warm)),
    floorAdded: median(floor.map((r) => r.first - r.warm)),
  };
}

const range = (values) => `${Math.min(...values).toFixed(1)}–${Math.max(...values).toFixed(1)}`;

export function printFirstRequest({ ours, floor, bindings = [], added, floorAdded }) {
  const list = (results) => results.map((r) => `${r.first.toFixed(1)}/${r.warm.toFixed(1)}`).join(", ");
  console.log(`first request of a fresh wrangler dev, first/warm ms per run:`);
  console.log(`  ours  (POST /api/auth/exchangeToken): ${list(ours)}`);
  console.log(`  floor (a frameworkless Worker, GET /): ${list(floor)}`);
  const adds = (results) => results.map((r) => r.first - r.warm);
  console.log(
    `the first request of a cold isolate adds: ours median ${added.toFixed(1)} ms (${range(adds(ours))}), ` +
      `the floor ${floorAdded.toFixed(1)} ms (${range(adds(floor))}); ours beyond the floor ${(added - floorAdded).toFixed(1)} ms`,
  );
  if (ours.every((r) => r.cpuFirst !== undefined) && floor.every((r) => r.cpuFirst !== undefined)) {
    const cpuAdds = (results) => results.map((r) => r.cpuFirst - r.cpuWarm);
    const ourCpu = median(cpuAdds(ours));
    const floorCpu = median(cpuAdds(floor));
    console.log(
      `workerd CPU the first request adds: ours median ${ourCpu.toFixed(1)} ms (${range(cpuAdds(ours))}), ` +
        `the floor ${floorCpu.toFixed(1)} ms (${range(cpuAdds(floor))}); ours beyond the floor ${(ourCpu - floorCpu).toFixed(1)} ms`,
    );
    if (bindings.length > 0 && bindings.every((r) => r.cpuFirst !== undefined)) {
      const bindingsCpu = median(cpuAdds(bindings));
      console.log(
        `  the bindings floor (the exchange's platform calls, no framework): ${bindingsCpu.toFixed(1)} ms (${range(cpuAdds(bindings))}); ` +
          `ours beyond it ${(ourCpu - bindingsCpu).toFixed(1)} ms`,
      );
    }
  }
  console.log(
    `budget (issue 45): the first request at most ${FIRST_REQUEST_TARGET_MS} ms more than warm: ` +
      `${added <= FIRST_REQUEST_TARGET_MS ? "met" : "not met"} (${added.toFixed(1)} ms; the floor alone adds ${floorAdded.toFixed(1)} ms)`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const option = (name, fallback) => {
    const index = process.argv.indexOf(`--${name}`);
    return index === -1 ? fallback : Number(process.argv[index + 1]);
  };
  printFirstRequest(
    await measureFirstRequest({
      runs: option("runs", 5),
      warm: option("warm", 20),
      bindingsFloor: process.argv.includes("--bindings-floor"),
    }),
  );
}
