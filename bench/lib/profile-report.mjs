// What a CPU profile of the bench load says: our Worker's top self time, and CPU per request of both Workers by group.
import { selfTime } from "./profiler.mjs";
import { table } from "./report.mjs";

/**
 * Sampled CPU per request of both Workers, by group: where our extra time goes. Idle is left out; the sampling
 * profiler slows both sides alike.
 */
export function printCpuPerRequest(print, what, ours, base, middle) {
  if (middle) return printCpuPerRequestOfThree(print, what, ours, middle, base);
  const perRequest = ({ profile, requests }) => {
    const groups = selfTime(profile)
      .groups(Number.POSITIVE_INFINITY)
      .filter((g) => g.what !== "(idle)");
    return { total: groups.reduce((ms, g) => ms + g.ms, 0) / requests, byGroup: new Map(groups.map((g) => [g.what, g.ms / requests])) };
  };
  const [o, b] = [perRequest(ours), perRequest(base)];
  const names = [...new Set([...o.byGroup.keys(), ...b.byGroup.keys()])];
  const sorted = names
    .map((name) => ({ name, ours: o.byGroup.get(name) ?? 0, base: b.byGroup.get(name) ?? 0 }))
    .sort((x, y) => y.ours - y.base - (x.ours - x.base));
  // The largest differences, then the baseline's own groups where it spends more: the same work under another name
  // (its serialization is its own code, ours is src/), which the first rows overstate by as much.
  const rows = [...sorted.slice(0, 16), ...sorted.slice(16).filter((r) => r.base - r.ours >= 0.05)];
  print("");
  print(
    `CPU per request during ${what} (sampled, idle left out): ours ${o.total.toFixed(2)} ms, baseline ${b.total.toFixed(2)} ms ` +
      `(${(o.total / b.total).toFixed(2)}x); by group, largest difference first (then where the baseline spends more):`,
  );
  print(
    table(
      ["group", "ours ms", "baseline ms", "difference"],
      rows.map((r) => [r.name, r.ours.toFixed(2), r.base.toFixed(2), (r.ours - r.base).toFixed(2)]),
    ),
  );
}

/** The top self time of a CPU profile, by group (package or src folder) and by function. */
export function printProfile(print, label, profile) {
  const time = selfTime(profile);
  const pct = (share) => `${(share * 100).toFixed(1)}%`;
  print("");
  print(`CPU profile of ${label}: ${time.totalMs.toFixed(0)} ms sampled`);
  // A module outside this checkout (`../wt-…/src/…`): the inspector port was another bench's Worker.
  if (time.functions(Number.POSITIVE_INFINITY).some((r) => / \.\.\//.test(r.what))) {
    print("WARNING: this profile samples modules of another checkout: its inspector port answered another bench's Worker.");
  }
  print(
    table(
      ["group", "self ms", "share"],
      time.groups(12).map((r) => [r.what, r.ms.toFixed(0), pct(r.share)]),
    ),
  );
  print(
    table(
      ["function (module:line)", "self ms", "share"],
      time.functions(20).map((r) => [r.what.slice(0, 110), r.ms.toFixed(0), pct(r.share)]),
    ),
  );
  for (const group of ["drizzle-orm", "hono", "@hono/zod-openapi", "zod"]) {
    const callers = time.callers(group, 10);
    if (callers.length === 0) continue;
    print(`${group}'s self time by the src/ function on its stack:`);
    print(
      table(
        ["src/ caller (module:line)", "self ms", "share"],
        callers.map((r) => [r.what.slice(0, 110), r.ms.toFixed(0), pct(r.share)]),
      ),
    );
  }
}

/**
 * The same with a third Worker between ours and the baseline (the time-tracking scenario's hono-only Worker): CPU per
 * request of the three, by group, so that the framework's cost (hono-only − baseline) and ours (ours − hono-only) show
 * apart in the same run.
 */
function printCpuPerRequestOfThree(print, what, ours, middle, base) {
  const [o, m, b] = [ours, middle, base].map(perRequest);
  const names = [...new Set([...o.byGroup.keys(), ...m.byGroup.keys(), ...b.byGroup.keys()])];
  const rows = names
    .map((name) => ({ name, ours: o.byGroup.get(name) ?? 0, middle: m.byGroup.get(name) ?? 0, base: b.byGroup.get(name) ?? 0 }))
    .sort((x, y) => y.ours - y.middle - (x.ours - x.middle))
    .filter((r, i) => i < 18 || Math.max(r.ours, r.middle, r.base) >= 0.1);
  const x = (a, c) => `${(a / c).toFixed(2)}x`;
  print("");
  print(
    `CPU per request during ${what} (sampled, idle left out): ours ${o.total.toFixed(2)} ms, hono-only ${m.total.toFixed(2)} ms, ` +
      `baseline ${b.total.toFixed(2)} ms — ours/hono-only ${x(o.total, m.total)}, ours/baseline ${x(o.total, b.total)}, ` +
      `hono-only/baseline ${x(m.total, b.total)}; by group, largest (ours − hono-only) first:`,
  );
  print(
    table(
      ["group", "ours ms", "hono-only ms", "baseline ms", "ours − hono-only"],
      rows.map((r) => [r.name, r.ours.toFixed(2), r.middle.toFixed(2), r.base.toFixed(2), (r.ours - r.middle).toFixed(2)]),
    ),
  );
  return { ours: o.total, middle: m.total, base: b.total };
}

function perRequest({ profile, requests }) {
  const groups = selfTime(profile)
    .groups(Number.POSITIVE_INFINITY)
    .filter((g) => g.what !== "(idle)");
  return { total: groups.reduce((ms, g) => ms + g.ms, 0) / requests, byGroup: new Map(groups.map((g) => [g.what, g.ms / requests])) };
}

/**
 * Where one profiled phase spends more CPU per request than another (the kiosk's punches against the phone's): by
 * group, by function, and drizzle's, hono's and zod's self time by the src/ caller on their stack, largest difference
 * first. Idle left out; each side's time divided by its own request count.
 */
export function printCpuDifference(print, what, a, b, labels = ["a", "b"]) {
  const perRequestOf = ({ profile, requests }) => {
    const time = selfTime(profile);
    const all = (rows) => new Map(rows.filter((r) => r.what !== "(idle)").map((r) => [r.what, r.ms / requests]));
    const groups = all(time.groups(Number.POSITIVE_INFINITY));
    const callers = new Map(
      ["drizzle-orm", "hono", "@hono/zod-openapi", "zod"].map((g) => [g, all(time.callers(g, Number.POSITIVE_INFINITY))]),
    );
    return {
      total: [...groups.values()].reduce((s, v) => s + v, 0),
      groups,
      functions: all(time.functions(Number.POSITIVE_INFINITY)),
      callers,
    };
  };
  const [x, y] = [perRequestOf(a), perRequestOf(b)];
  const differences = (mx, my, n) =>
    [...new Set([...mx.keys(), ...my.keys()])]
      .map((name) => ({ name, x: mx.get(name) ?? 0, y: my.get(name) ?? 0 }))
      .sort((p, q) => Math.abs(q.x - q.y) - Math.abs(p.x - p.y))
      .slice(0, n);
  const rows = (list) => list.map((r) => [r.name.slice(0, 110), r.x.toFixed(2), r.y.toFixed(2), (r.x - r.y).toFixed(2)]);
  const head = (first) => [first, `${labels[0]} ms`, `${labels[1]} ms`, "difference"];
  print("");
  print(
    `CPU per request, ${what} (sampled, idle left out): ${labels[0]} ${x.total.toFixed(2)} ms, ${labels[1]} ${y.total.toFixed(2)} ms ` +
      `(difference ${(x.total - y.total).toFixed(2)} ms, ${(x.total / y.total).toFixed(2)}x); largest differences first:`,
  );
  print(table(head("group"), rows(differences(x.groups, y.groups, 16))));
  print(table(head("function (module:line)"), rows(differences(x.functions, y.functions, 30))));
  for (const group of x.callers.keys()) {
    const list = differences(x.callers.get(group), y.callers.get(group), 10).filter((r) => Math.abs(r.x - r.y) >= 0.05);
    if (list.length === 0) continue;
    print(`${group}'s self time by the src/ function on its stack:`);
    print(table(head("src/ caller (module:line)"), rows(list)));
  }
  return { a: x.total, b: y.total };
}
