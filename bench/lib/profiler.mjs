// CPU profiles of a Worker under load, through the inspector `wrangler dev` exposes (--inspector-port): the DevTools
// protocol's Profiler domain over a WebSocket (Node 22's global WebSocket), then self time per function, attributed to
// the module it was bundled from (by the bundle's source map).
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The inspector's first target's WebSocket URL. */
async function debuggerUrl(inspectorPort) {
  const res = await fetch(`http://127.0.0.1:${inspectorPort}/json`);
  const targets = await res.json();
  const target = targets.find((t) => t.webSocketDebuggerUrl) ?? targets[0];
  if (!target?.webSocketDebuggerUrl) throw new Error(`no inspector target on port ${inspectorPort}: ${JSON.stringify(targets)}`);
  return target.webSocketDebuggerUrl;
}

/**
 * Starts sampling (every `intervalMicros`); `stop()` answers the profile. wrangler's inspector proxy asks for an Origin
 * and renumbers message ids, so commands are sent one at a time and each answer goes to the one waiting.
 */
export async function startProfile(inspectorPort, intervalMicros = 100) {
  const socket = new WebSocket(await debuggerUrl(inspectorPort), { headers: { Origin: `http://127.0.0.1:${inspectorPort}` } });
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve, { once: true });
    socket.addEventListener("error", (event) => reject(new Error(`inspector: ${event.message ?? "connection refused"}`)), { once: true });
  });
  let waiting = null;
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.id === undefined || !waiting) return;
    const { resolve, reject } = waiting;
    waiting = null;
    if (message.error) reject(new Error(JSON.stringify(message.error)));
    else resolve(message.result);
  });
  let next = 1;
  const send = (method, params = {}) =>
    new Promise((resolve, reject) => {
      waiting = { resolve, reject };
      socket.send(JSON.stringify({ id: next++, method, params }));
    });
  await send("Profiler.enable");
  await send("Profiler.setSamplingInterval", { interval: intervalMicros });
  await send("Profiler.start");
  return {
    /** The profile, with the source of each script it sampled (`sources` by scriptId: the bundle, read from the isolate). */
    async stop() {
      const { profile } = await send("Profiler.stop");
      await send("Debugger.enable");
      const sources = {};
      for (const { callFrame } of profile.nodes) {
        if (!callFrame.url || callFrame.scriptId in sources) continue;
        sources[callFrame.scriptId] = (await send("Debugger.getScriptSource", { scriptId: callFrame.scriptId })).scriptSource;
      }
      await send("Debugger.disable");
      socket.close();
      return { ...profile, sources };
    },
  };
}

const ROOT = join(import.meta.dirname, "..", "..");

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** A source map's `mappings`, decoded: per generated line, its segments [column, source index] in column order. */
function decodeMappings(mappings) {
  const lines = [];
  let source = 0;
  for (const line of mappings.split(";")) {
    const segments = [];
    let column = 0;
    for (const segment of line.split(",")) {
      if (!segment) continue;
      const fields = [];
      let value = 0;
      let shift = 0;
      for (const char of segment) {
        const digit = BASE64.indexOf(char);
        value += (digit & 31) << shift;
        if (digit & 32) shift += 5;
        else {
          fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      column += fields[0];
      if (fields.length > 1) {
        source += fields[1];
        segments.push([column, source]);
      }
      // The original line, column and name are not needed: only which module a column came from.
    }
    lines.push(segments);
  }
  return lines;
}

/**
 * For a bundled script's source: the module each (line, column) came from, by the bundle's source map (wrangler
 * writes it beside the bundle named by `//# sourceURL`, while `wrangler dev` runs).
 */
function moduleIndex(text) {
  const url = /\/\/# sourceURL=(file:\/\/\S+)/.exec(text)?.[1];
  let map = null;
  try {
    map = url && JSON.parse(readFileSync(`${fileURLToPath(url)}.map`, "utf8"));
  } catch {
    map = null;
  }
  if (!map) return () => null;
  // Sources are relative to the map's folder (each Worker's bundle folder differs in depth): resolved, every Worker's
  // modules get the same names (bench/baseline/…, node_modules/hono/…), so the groups line up across Workers.
  const folder = dirname(fileURLToPath(url));
  map.sources = map.sources.map((source) =>
    /^[a-z]+:/.test(source) ? source : relative(ROOT, resolve(folder, map.sourceRoot ?? "", source)),
  );
  const lines = decodeMappings(map.mappings);
  return (line, column) => {
    const segments = lines[line] ?? [];
    let found = null;
    for (const [start, source] of segments) {
      if (start > column) break;
      found = source;
    }
    return found === null ? null : map.sources[found];
  };
}

/** A module's group: its package (drizzle's source maps name its own `src/`), a folder of our src/, or the bench's entry. */
const groupOf = (module) => {
  if (/wrangler\/templates\//.test(module) || /middleware-(loader|insertion)/.test(module)) return "wrangler middleware loader (all three)";
  if (/node_modules\/src\//.test(module)) return "drizzle-orm";
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(module);
  if (pkg) return pkg[1];
  const src = /(?:^|\/)src\/([^/]+)(\/[^/]+)?/.exec(module);
  if (src) return src[2] ? `src/${src[1]}${src[1] === "features" || src[1] === "platform" ? src[2] : ""}` : `src/${src[1]}`;
  if (/(?:^|\/)bench\/baseline\//.test(module)) return "bench/baseline";
  if (/(?:^|\/)bench\/hono-only\//.test(module)) return "bench/hono-only";
  if (/(?:^|\/)bench\/bench-entry\.js$/.test(module)) return "bench entry (bench-entry.js, all three)";
  if (/(?:^|\/)bench\//.test(module)) return "bench entry (counting-entry.ts)";
  return module;
};

/**
 * Self time by function and by group (a package, or a folder of src/), in ms and as a share of the sampled time
 * (idle and garbage collection included, as the profiler reports them).
 */
export function selfTime(profile) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const indexes = new Map();
  const moduleOf = (frame) => {
    const source = profile.sources?.[frame.scriptId];
    if (!frame.url || source === undefined) return null;
    if (!indexes.has(frame.scriptId)) indexes.set(frame.scriptId, moduleIndex(source));
    return indexes.get(frame.scriptId)(frame.lineNumber, frame.columnNumber);
  };
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const byFunction = new Map();
  const byGroup = new Map();
  for (const [id, micros] of self) {
    const frame = nodes.get(id).callFrame;
    const module = moduleOf(frame);
    const name = frame.functionName || "(anonymous)";
    const key = module ? `${name} ${module}:${frame.lineNumber + 1}` : `${name}${frame.url ? ` ${frame.url}:${frame.lineNumber + 1}` : ""}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + micros);
    const group = !frame.url ? name : module ? groupOf(module) : frame.url;
    byGroup.set(group, (byGroup.get(group) ?? 0) + micros);
  }
  /**
   * Self time of `group` (a package) by the nearest function of our src/ on its stack: which of our call sites
   * spend it (e.g. which statements drizzle builds).
   */
  const parents = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const byCaller = new Map();
  for (const [id, micros] of self) {
    const leafModule = moduleOf(nodes.get(id).callFrame);
    const group = leafModule ? groupOf(leafModule) : null;
    if (!group) continue;
    let caller = "(no src/ frame)";
    for (let at = parents.get(id); at !== undefined; at = parents.get(at)) {
      const frame = nodes.get(at).callFrame;
      const module = moduleOf(frame);
      if (module && /(?:^|\/)src\//.test(module) && !/node_modules/.test(module)) {
        caller = `${frame.functionName || "(anonymous)"} ${module.replace(/^.*?src\//, "src/")}:${frame.lineNumber + 1}`;
        break;
      }
    }
    const callers = byCaller.get(group) ?? new Map();
    callers.set(caller, (callers.get(caller) ?? 0) + micros);
    byCaller.set(group, callers);
  }
  const rows = (map, n) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([what, micros]) => ({ what, ms: micros / 1000, share: micros / total }));
  return {
    totalMs: total / 1000,
    functions: (n = 20) => rows(byFunction, n),
    groups: (n = 15) => rows(byGroup, n),
    callers: (group, n = 12) => rows(byCaller.get(group) ?? new Map(), n),
  };
}

/**
 * CPU time and peak JS heap of the Worker's isolate while `work()` runs (the scale scenario), through the same
 * inspector: a garbage collection first (so the peak is this work's, over what the isolate keeps between requests:
 * `collect()`, the scale scenario's POST /__bench/gc calling the isolate's `gc()`; workerd never answers nor runs the
 * inspector's HeapProfiler.collectGarbage, which is only the fallback and left each figure carrying the garbage of
 * the requests before it; PROFILER_DEBUG=1 prints the heap before and after each collection),
 * the Profiler sampling every `intervalMicros` (CPU = the sampled time outside "(idle)"), and `Runtime.getHeapUsage`
 * polled every `pollMillis` (the isolate answers between its tasks and at each await, so a peak inside one long
 * synchronous stretch can be missed; the figure is a lower bound of the true peak). Answers {result, cpuMs,
 * sampledMs, peakHeapBytes}: cpuMs leaves out the gaps in which the isolate was not running (see below).
 */
const COMMAND_TIMEOUT_MS = 120_000;
/** The most sampling intervals one sample stands for (cpuMs); `sampledMs` counts every gap whole (before 2026-12-07). */
const GAP_CAP_SAMPLES = 8;

export async function watchIsolate(inspectorPort, work, { intervalMicros = 250, pollMillis = 10, collect, keepProfile = false } = {}) {
  const socket = new WebSocket(await debuggerUrl(inspectorPort), { headers: { Origin: `http://127.0.0.1:${inspectorPort}` } });
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve, { once: true });
    socket.addEventListener("error", (event) => reject(new Error(`inspector: ${event.message ?? "connection refused"}`)), { once: true });
  });
  // Answers are matched by id: the proxy also passes on answers to commands of its own (ids from 100000000), and
  // echoes some of ours (the Profiler's set-up commands) without a result: for those the echo is the answer. A command
  // unanswered within `COMMAND_TIMEOUT_MS` fails.
  const pending = new Map();
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    const waiter = pending.get(message.id);
    if (!waiter) return;
    if (!("result" in message || "error" in message)) {
      if (!waiter.echoAnswers || message.method !== waiter.method) return;
      message.result = {};
    }
    pending.delete(message.id);
    if (message.error) waiter.reject(new Error(`${waiter.method}: ${JSON.stringify(message.error)}`));
    else waiter.resolve(message.result);
  });
  let next = 1;
  const send = (method, params = {}, echoAnswers = false) =>
    new Promise((resolve, reject) => {
      const id = next++;
      // A set-up command whose echo does not come is taken as sent after a short wait.
      const timer = setTimeout(
        () => {
          pending.delete(id);
          if (echoAnswers) resolve({});
          else reject(new Error(`inspector: no answer to ${method}`));
        },
        echoAnswers ? 2000 : COMMAND_TIMEOUT_MS,
      );
      pending.set(id, {
        method,
        echoAnswers,
        resolve: (value) => (clearTimeout(timer), resolve(value)),
        reject: (error) => (clearTimeout(timer), reject(error)),
      });
      socket.send(JSON.stringify({ id, method, params }));
    });
  try {
    const heapUsage = () => send("Runtime.getHeapUsage");
    const beforeGc = (await heapUsage()).usedSize;
    const t0 = Date.now();
    const gcAnswer = collect
      ? await collect().catch((e) => ({ error: String(e) }))
      : await send("HeapProfiler.collectGarbage", {}, true).catch(() => ({}));
    let peakHeapBytes = (await heapUsage()).usedSize;
    if (process.env.PROFILER_DEBUG)
      console.error(
        `GC: before ${(beforeGc / 1048576).toFixed(1)} after ${(peakHeapBytes / 1048576).toFixed(1)} MB in ${Date.now() - t0} ms answer ${JSON.stringify(gcAnswer)}`,
      );
    await send("Profiler.enable", {}, true);
    await send("Profiler.setSamplingInterval", { interval: intervalMicros }, true);
    await send("Profiler.start", {}, true);
    let done = false;
    const polling = (async () => {
      while (!done) {
        const usage = await heapUsage();
        peakHeapBytes = Math.max(peakHeapBytes, usage.usedSize);
        await new Promise((r) => setTimeout(r, pollMillis));
      }
    })();
    let result;
    try {
      result = await work();
    } finally {
      done = true;
      await polling;
    }
    const { profile } = await send("Profiler.stop");
    await send("Profiler.disable", {}, true).catch(() => {});
    const idle = new Set(profile.nodes.filter((n) => n.callFrame.functionName === "(idle)").map((n) => n.id));
    // V8 records a sample only while the isolate is entered. While it waits on local D1 (SQLite runs in workerd's
    // Durable Object, on the same thread) or on the thread itself, nothing is recorded, and the whole gap lands as
    // the time delta of the next sample, whatever it is ("(program)", a JS frame or "(idle)"). A sample counts at
    // most GAP_CAP_SAMPLES intervals: the isolate's own CPU, not local SQLite's nor the machine's load.
    const cap = intervalMicros * GAP_CAP_SAMPLES;
    let cpuMicros = 0;
    let sampledMicros = 0;
    profile.samples.forEach((node, i) => {
      if (idle.has(node)) return;
      const delta = profile.timeDeltas[i] ?? 0;
      cpuMicros += Math.min(delta, cap);
      sampledMicros += delta;
    });
    return {
      result,
      cpuMs: cpuMicros / 1000,
      sampledMs: sampledMicros / 1000,
      peakHeapBytes,
      ...(keepProfile ? { profile } : {}),
    };
  } finally {
    socket.close();
  }
}
