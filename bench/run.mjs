// `npm run bench [-- --scenario NAME] [--duration S] [--warmup S] [--connections N] [--staff N] [--keep-state]`
// Runs each scenario of bench/scenarios/ (or the one named): every scenario starts its own Workers on 127.0.0.1 with
// fresh local D1 databases in a temporary directory, and every server is stopped when it ends, fails or is
// interrupted. Figures are printed, never asserted.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { MAX_CONNECTIONS } from "./lib/load.mjs";
import { stopAll } from "./lib/servers.mjs";

const USAGE =
  "Usage: npm run bench -- [--scenario NAME] [--duration SECONDS] [--warmup SECONDS] [--connections N] [--staff N] [--keep-state]\n" +
  `  --scenario     run only this scenario (default: all of bench/scenarios/)\n` +
  `  --duration     seconds of measured load per phase (default 10, at most 60)\n` +
  `  --warmup       seconds of discarded warm-up load per phase (default 2, at most 30)\n` +
  `  --connections  concurrent connections (default 8, at most ${MAX_CONNECTIONS})\n` +
  `  --keep-state   keep the temporary D1 databases and wrangler logs\n` +
  `  --staff        staff of the scale scenario's organization (default 10000, from 500 to 200000)\n` +
  `  --profile      CPU-profile both Workers during their measured load (scenarios that support it): top self time,\n` +
  `                 and CPU per request of ours vs the baseline by group`;

function options() {
  const { values } = parseArgs({
    options: {
      scenario: { type: "string" },
      duration: { type: "string", default: "10" },
      warmup: { type: "string", default: "2" },
      connections: { type: "string", default: "8" },
      "keep-state": { type: "boolean", default: false },
      staff: { type: "string", default: "10000" },
      profile: { type: "boolean", default: false },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const bounded = (name, value, min, max) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max) {
      console.error(`--${name} must be a whole number from ${min} to ${max}\n\n${USAGE}`);
      process.exit(2);
    }
    return n;
  };
  return {
    scenario: values.scenario,
    keepState: values["keep-state"],
    profile: values.profile,
    durationSeconds: bounded("duration", values.duration, 1, 60),
    warmupSeconds: bounded("warmup", values.warmup, 0, 30),
    connections: bounded("connections", values.connections, 1, MAX_CONNECTIONS),
    staff: bounded("staff", values.staff, 500, 200_000),
  };
}

async function loadScenarios(only) {
  const dir = join(import.meta.dirname, "scenarios");
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".mjs"))
    .sort();
  const scenarios = await Promise.all(files.map((f) => import(join(dir, f))));
  const chosen = only ? scenarios.filter((s) => s.name === only) : scenarios;
  if (chosen.length === 0) {
    console.error(`No scenario named ${only}; there are: ${scenarios.map((s) => s.name).join(", ")}`);
    process.exit(2);
  }
  return chosen;
}

const opts = options();
const scenarios = await loadScenarios(opts.scenario);
const stateRoot = mkdtempSync(join(tmpdir(), "shiftline-bench-"));
let failed = false;

let stopping = false;
async function shutdown(code) {
  if (stopping) return;
  stopping = true;
  await stopAll();
  if (!opts.keepState && !failed) rmSync(stateRoot, { recursive: true, force: true });
  else console.log(`State and wrangler logs kept in ${stateRoot}`);
  process.exit(code);
}
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => {
    console.error(`\n${signal}: stopping the Workers…`);
    void shutdown(130);
  });
}
process.on("uncaughtException", (error) => {
  failed = true;
  console.error(error);
  void shutdown(1);
});

console.log(
  `Shiftline bench — node ${process.version}, ${opts.connections} connections, ${opts.durationSeconds} s per phase, ` +
    `${opts.warmupSeconds} s warm-up; local wrangler dev on 127.0.0.1 (miniflare D1: a "round trip" here is in-process, ` +
    "so latency ratios show CPU overhead, and round-trip counts show what production network hops would cost).",
);
for (const scenario of scenarios) {
  console.log(`\n=== ${scenario.name}: ${scenario.description} ===`);
  const stateDir = join(stateRoot, scenario.name);
  try {
    await scenario.run({ stateDir, options: opts, print: (line) => console.log(line) });
  } catch (error) {
    failed = true;
    console.error(`\n${scenario.name} failed: ${error.stack ?? error}`);
  } finally {
    await stopAll();
  }
}
await shutdown(failed ? 1 : 0);
