// CPU profiles of a Worker under load, through the inspector `wrangler dev` exposes (--inspector-port): the DevTools
// protocol's Profiler domain over a WebSocket (Node 22's global WebSocket), then self time per function, attributed to
// the module esbuild bundled it from (the bundle marks each module with a `// path` comment line).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The inspector's first target's WebSocket URL. */
async function debuggerUrl(inspectorPort) {
  const res = await fetch(`http://127.0.0.1:${inspectorPort}/json`);
  const targets = await res.json();
  const target = targets.find((t) => t.webSocketDebuggerUrl) ?? targets[0];
  if (!target?.webSocketDebuggerUrl) throw new Error(`no inspector target on port ${inspectorPort}: ${JSON.stringify(targets)}`);
  return target.webSocketDebuggerUrl;
}

/** Starts sampling (every `intervalMicros`); `stop()` answers the profile. */
export async function startProfile(inspectorPort, intervalMicros = 100) {
  const socket = new WebSocket(await debuggerUrl(inspectorPort));
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve, { once: true });
    socket.addEventListener("error", reject, { once: true });
  });
  let next = 1;
  const pending = new Map();
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    const waiter = message.id !== undefined && pending.get(message.id);
    if (!waiter) return;
    pending.delete(message.id);
    if (message.error) waiter.reject(new Error(JSON.stringify(message.error)));
    else waiter.resolve(message.result);
  });
  const send = (method, params = {}) =>
    new Promise((resolve, reject) => {
      const id = next++;
      pending.set(id, { resolve, reject });
      socket.send(JSON.stringify({ id, method, params }));
    });
  await send("Profiler.enable");
  await send("Profiler.setSamplingInterval", { interval: intervalMicros });
  await send("Profiler.start");
  return {
    async stop() {
      const { profile } = await send("Profiler.stop");
      socket.close();
      return profile;
    },
  };
}

/** For a bundled script: each line's module, from the `// path` comment esbuild writes before each module. */
function moduleIndex(url) {
  let text;
  try {
    text = readFileSync(url.startsWith("file:") ? fileURLToPath(url) : url, "utf8");
  } catch {
    return () => null;
  }
  const starts = [];
  text.split("\n").forEach((line, i) => {
    const m = /^\/\/ (\S+\.(?:[cm]?[jt]sx?))$/.exec(line);
    if (m) starts.push([i, m[1]]);
  });
  return (line) => {
    let low = 0;
    let high = starts.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (starts[mid][0] <= line) low = mid + 1;
      else high = mid;
    }
    return low === 0 ? null : starts[low - 1][1];
  };
}

const groupOf = (module) => {
  if (!module) return "(runtime)";
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(module);
  if (pkg) return pkg[1];
  const src = /(?:^|\/)(src\/[^/]+(?:\/[^/]+)?)\//.exec(module);
  return src ? src[1] : module;
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
    if (!frame.url) return null;
    if (!indexes.has(frame.url)) indexes.set(frame.url, moduleIndex(frame.url));
    return indexes.get(frame.url)(frame.lineNumber);
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
    const group = frame.url ? groupOf(module) : name;
    byGroup.set(group, (byGroup.get(group) ?? 0) + micros);
  }
  const rows = (map, n) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([what, micros]) => ({ what, ms: micros / 1000, share: micros / total }));
  return { totalMs: total / 1000, functions: (n = 20) => rows(byFunction, n), groups: (n = 15) => rows(byGroup, n) };
}
