// Where local D1's SQLite time lands in the Worker isolate's CPU profile (issue 50; bench/README.md, "What the CPU
// column counts"). `node bench/probe-cpu.mjs` (Node 22, Linux: /proc): one Worker, then statements that are all SQLite
// (a recursive count) or mostly JS (rows turned into JSON), each under watchIsolate, printing the capped CPU, the old
// figure, the profile's largest time delta and the node it landed on, and the CPU of each workerd thread meanwhile.
// PROBE_PROFILE_DIR=dir keeps each .cpuprofile.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { watchIsolate } from "./lib/profiler.mjs";
import { stopAll } from "./lib/servers.mjs";
import { startOurs } from "./lib/workers.mjs";

const threadTicks = (pid) => {
  const out = {};
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      out[tid] = { name: stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")), ticks: Number(f[11]) + Number(f[12]) };
    } catch {}
  }
  return out;
};
const workerdPids = () => {
  const pids = [];
  for (const p of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const cmd = readFileSync(`/proc/${p}/cmdline`, "utf8");
      if (
        cmd.includes("workerd") &&
        cmd.includes("serve") &&
        readFileSync(`/proc/${p}/environ`, "utf8").includes(`PROBE_TAG=${process.pid}`)
      )
        pids.push(p);
    } catch {}
  }
  return pids;
};

process.env.PROBE_TAG = String(process.pid);
const stateDir = mkdtempSync(join(tmpdir(), "probe-cpu-"));
const ours = await startOurs(stateDir, "ours");
try {
  const wpids = workerdPids();
  console.log("workerd pids", wpids);
  const sql = (n) =>
    `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < ${n}) SELECT count(*) AS n, sum(x % 7) AS s FROM c`;
  await ours.request("POST", "/__bench/sql", { body: { sql: sql(1000) } });
  const rows = (n) =>
    `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < ${n}) SELECT x, 'name-' || x AS name, x * 1.5 AS pay FROM c`;
  for (const [label, n, q] of [
    ["count", 3_000_000, sql],
    ["count", 6_000_000, sql],
    ["rows", 150_000, rows],
    ["rows", 300_000, rows],
  ]) {
    const before = Object.fromEntries(wpids.flatMap((x) => Object.entries(threadTicks(x)).map(([t, v]) => [`${x}/${t}`, v])));
    const t0 = Date.now();
    const w = await watchIsolate(ours.inspectorPort, () => ours.request("POST", "/__bench/sql", { body: { sql: q(n) } }), {
      keepProfile: true,
    });
    const wall = Date.now() - t0;
    const after = Object.fromEntries(wpids.flatMap((x) => Object.entries(threadTicks(x)).map(([t, v]) => [`${x}/${t}`, v])));
    const threads = Object.entries(after)
      .map(([tid, a]) => ({ tid, name: a.name, ms: (a.ticks - (before[tid]?.ticks ?? 0)) * 10 }))
      .filter((t) => t.ms > 0);
    const p = w.profile;
    const byNode = new Map(p.nodes.map((x) => [x.id, x.callFrame.functionName || "(anonymous)"]));
    const sums = {};
    let maxDelta = 0;
    p.samples.forEach((id, i) => {
      const what = byNode.get(id);
      sums[what] = (sums[what] ?? 0) + (p.timeDeltas[i] ?? 0) / 1000;
      maxDelta = Math.max(maxDelta, p.timeDeltas[i] ?? 0);
    });
    const top = Object.entries(sums)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6)
      .map(([k, v]) => `${k} ${v.toFixed(0)}ms`);
    console.log(
      `${label} n=${n} status=${w.result.status} wall=${wall}ms js_cpu(capped)=${w.cpuMs.toFixed(0)}ms old_sampled=${w.sampledMs.toFixed(0)}ms samples=${p.samples.length} maxDelta=${(maxDelta / 1000).toFixed(1)}ms`,
    );
    console.log("  by node:", top.join(", "));
    console.log("  workerd threads (utime+stime):", threads.map((t) => `${t.tid}/${t.name} ${t.ms}ms`).join(", "));
    if (process.env.PROBE_PROFILE_DIR) writeFileSync(join(process.env.PROBE_PROFILE_DIR, `${label}-${n}.cpuprofile`), JSON.stringify(p));
  }
} finally {
  await stopAll();
}
