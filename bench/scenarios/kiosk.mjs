// Issue "Kiosks": a kiosk's clock-in (its device and PIN read in the punch's own read batch) against a phone's
// clock-in in the same run, target p50 ≤ 1.2×; the PBKDF2 derivation the PIN check costs, measured apart in Node and
// (--profile) in workerd; the same kiosk punches once more with their PINs stored at one iteration, PBKDF2's cost
// taken out, and again with each device forgotten before its punch (looked up on its own, as before: the lever's
// before and after in one run). Also the D1 round trips of one traced punch of each client. --profile: CPU profiles
// of every phase, and the kiosk's extra CPU per request over the phone's by group, function and src/ caller.

import { pbkdf2Sync, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { accessToken, expectStatus, seedOrganization } from "../lib/api.mjs";
import { measure } from "../lib/load.mjs";
import { printCpuDifference, printProfile } from "../lib/profile-report.mjs";
import { selfTime, startProfile } from "../lib/profiler.mjs";
import { ms, table } from "../lib/report.mjs";
import { inGroups } from "../lib/seeding.mjs";
import { describeRoundTrip, startOurs, traced } from "../lib/workers.mjs";

export const name = "kiosk";
export const description = "kiosk clock-in (PIN) vs phone clock-in in the same run, and the PBKDF2 cost apart (issue Kiosks)";

const PIN = "2468";
const TARGET = 1.2;
const SEED_PARALLELISM = 8;
/** Members of each client in the one-connection alternating phases (fresh ones per phase: none left clocked in). */
const ALTERNATING = 4;

/** The iterations the Worker derives a PIN with (src/auth/pins/pin-hash.ts), read from the source itself. */
function pinIterations() {
  const source = readFileSync(join(import.meta.dirname, "..", "..", "src", "auth", "pins", "pin-hash.ts"), "utf8");
  const match = /PIN_ITERATIONS = ([\d_]+)/.exec(source);
  if (!match) throw new Error("PIN_ITERATIONS not found in src/auth/pins/pin-hash.ts");
  return Number(match[1].replaceAll("_", ""));
}

/** CPU milliseconds of one PBKDF2-SHA-256 derivation at `iterations` (median of `runs`), on this machine's Node. */
function pbkdf2Cost(iterations, runs = 15) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const started = process.cpuUsage();
    pbkdf2Sync(PIN, randomBytes(16), iterations, 32, "sha256");
    const used = process.cpuUsage(started);
    times.push((used.user + used.system) / 1000);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)];
}

/**
 * Stores the PIN of `members` derived with ONE iteration (the iterations are stored with each hash, so the Worker's
 * own check derives with one): the same kiosk punches with PBKDF2's cost taken out, measured rather than subtracted.
 */
async function cheapPins(ours, members) {
  const salt = randomBytes(16);
  const hash = pbkdf2Sync(PIN, salt, 1, 32, "sha256").toString("base64");
  await expectStatus(
    ours.request("POST", "/__bench/sql", {
      body: {
        sql: "UPDATE staff_member_pins SET hash = ?, salt = ?, iterations = 1 WHERE employee_id IN (SELECT value FROM json_each(?))",
        params: [hash, salt.toString("base64"), JSON.stringify(members.map((m) => m.id))],
      },
    }),
    200,
    "PINs at one iteration",
  );
}

/** An organization, an unfenced location with an enrolled kiosk per connection, and staff members with their own tokens and PINs. */
async function seed(ours, connections) {
  const r = ours.request;
  const { org, admin } = await seedOrganization(r, { name: "Bench Kiosk", timezone: "America/New_York" });
  const location = await expectStatus(
    r("POST", `/api/organizations/${org.id}/locations`, { token: admin, body: { name: "Door", timezone: "America/New_York" } }),
    201,
    "location",
  );
  // One kiosk per connection: the punch rate limit is per token (1,200 a minute), as it is per device deployed.
  const kiosk = async (label) => {
    const device = await expectStatus(
      r("POST", `/api/organizations/${org.id}/locations/${location.id}/devices`, { token: admin, body: { name: label } }),
      201,
      "device",
    );
    const enrolled = await expectStatus(
      r("POST", "/api/devices/enroll", { body: { enrollmentCode: device.enrollmentCode } }),
      200,
      "enroll",
    );
    return enrolled.deviceToken;
  };
  const roleId = org.defaults.roles[0].id;
  const member = async (label) => {
    const staff = await expectStatus(
      r("POST", `/api/organizations/${org.id}/staffmembers`, {
        token: admin,
        body: { name: label, locationIds: [location.id], accessRoleName: "Employee" },
      }),
      201,
      `staff member ${label}`,
    );
    await expectStatus(
      r("PUT", `/api/organizations/${org.id}/staffmembers/${staff.id}/pin`, { token: admin, body: { pin: PIN } }),
      204,
      "pin",
    );
    return {
      id: staff.id,
      token: await accessToken(r, { organizationId: org.id, employeeId: staff.id }),
      path: `/api/organizations/${org.id}/staffmembers/${staff.id}/locations/${location.id}`,
    };
  };
  const labels = (prefix) => Array.from({ length: connections }, (_, i) => `${prefix} ${i + 1}`);
  return {
    roleId,
    deviceTokens: await inGroups(
      Array.from({ length: connections }, (_, i) => `Door ${i + 1}`),
      SEED_PARALLELISM,
      kiosk,
    ),
    phones: await inGroups(labels("Phone"), SEED_PARALLELISM, member),
    kiosks: await inGroups(labels("Kiosk"), SEED_PARALLELISM, member),
    warmers: await inGroups(labels("Warmer"), SEED_PARALLELISM, member),
    tracer: await member("Tracer"),
    alternating: await Promise.all(
      ["A", "B"].map(async (phase) => ({
        phones: await inGroups(
          Array.from({ length: ALTERNATING }, (_, i) => `Alternating phone ${phase} ${i + 1}`),
          SEED_PARALLELISM,
          member,
        ),
        kiosks: await inGroups(
          Array.from({ length: ALTERNATING }, (_, i) => `Alternating kiosk ${phase} ${i + 1}`),
          SEED_PARALLELISM,
          member,
        ),
      })),
    ),
  };
}

const json = (token) => ({ "content-type": "application/json", authorization: `Bearer ${token}` });
const phoneCycle = (m, roleId) => [
  { label: "phone clock-in", method: "POST", path: `${m.path}/clock-in`, headers: json(m.token), body: JSON.stringify({ roleId }) },
  { label: "phone clock-out", method: "POST", path: `${m.path}/clock-out`, headers: json(m.token), body: "{}" },
];
/** `apart`: the device forgotten before each punch (bench-entry: x-bench-forget-devices), looked up on its own as before. */
const kioskCycle = (m, world, deviceToken, apart = false) => {
  const punch = (label, body) => ({
    label,
    method: "POST",
    path: "/api/kiosk/punches",
    headers: apart ? { ...json(deviceToken), "x-bench-forget-devices": "1" } : json(deviceToken),
    body: JSON.stringify({ employeeId: m.id, pin: PIN, ...body }),
  });
  return [punch("kiosk clock-in", { action: "CLOCK_IN", roleId: world.roleId }), punch("kiosk clock-out", { action: "CLOCK_OUT" })];
};

/** One traced clock-in and clock-out of each client (the tracer): their D1 round trips on the organization's shard. */
async function countRoundTrips(ours, world) {
  const { tracer, roleId } = world;
  const trips = async (what, [clockIn, clockOut]) => {
    const out = [];
    for (const r of [clockIn, clockOut]) {
      const res = await traced(ours, r.method, r.path, { body: JSON.parse(r.body), token: r.headers.authorization.slice(7) });
      if (res.status !== 200) throw new Error(`traced ${what} ${r.label}: ${res.status} ${res.text.slice(0, 300)}`);
      out.push({ label: r.label, trips: res.roundTrips.filter((t) => t.kind !== "directory") });
    }
    return out;
  };
  // The kiosk's token once before (its staff list): a device the isolate has not seen yet is looked up on its own
  // first (3 round trips); from then on its row is read in the punch's read batch, as under the load.
  await expectStatus(ours.request("GET", "/api/kiosk/staff", { token: world.deviceTokens[0] }), 200, "kiosk staff");
  return [
    ...(await trips("phone", phoneCycle(tracer, roleId))),
    ...(await trips("kiosk", kioskCycle(tracer, world, world.deviceTokens[0]))),
  ];
}

/** Sampled CPU per request of a profiled phase (idle left out), and the share of it in PBKDF2 (WebCrypto's deriveBits). */
function cpuPerRequest({ profile, requests }) {
  const time = selfTime(profile);
  const busy = time.groups(Number.POSITIVE_INFINITY).filter((g) => g.what !== "(idle)");
  const derive = time.functions(Number.POSITIVE_INFINITY).filter((f) => /^deriveBits\b/.test(f.what));
  return {
    total: busy.reduce((sum, g) => sum + g.ms, 0) / requests,
    pbkdf2: derive.reduce((sum, f) => sum + f.ms, 0) / requests,
  };
}

export async function run({ stateDir, options, print }) {
  const { connections, durationSeconds, warmupSeconds, profile } = options;
  const iterations = pinIterations();
  print(`PBKDF2-SHA-256, ${iterations} iterations (the PIN check's derivation), measured in Node on this machine…`);
  const derivation = pbkdf2Cost(iterations);

  print("Starting our Worker (wrangler dev) and seeding it through the API…");
  const ours = await startOurs(stateDir);
  const world = await seed(ours, connections);
  const counted = await countRoundTrips(ours, world);
  const base = { url: ours.url, connections };
  const phases = [
    {
      what: "phone clock-in/clock-out cycles",
      warm: (i) => phoneCycle(world.warmers[i], world.roleId),
      load: (i) => phoneCycle(world.phones[i], world.roleId),
    },
    {
      what: "kiosk clock-in/clock-out cycles",
      warm: (i) => kioskCycle(world.warmers[i], world, world.deviceTokens[i]),
      load: (i) => kioskCycle(world.kiosks[i], world, world.deviceTokens[i]),
    },
  ];
  const results = {};
  const profiles = [];
  for (const phase of phases) {
    if (warmupSeconds > 0) await measure({ ...base, durationSeconds: warmupSeconds, requestsFor: phase.warm });
    print(`  ${durationSeconds} s of ${phase.what}`);
    const profiling = profile ? await startProfile(ours.inspectorPort) : null;
    const measured = await measure({ ...base, durationSeconds, requestsFor: phase.load });
    if (profiling) {
      const requests = Object.values(measured.byLabel).reduce((n, r) => n + r.count, 0);
      profiles.push({ what: phase.what, requests, profile: await profiling.stop() });
    }
    Object.assign(results, measured.byLabel);
  }
  // One connection, the phone's and the kiosk's cycles alternating (each member's own token and kiosk in turn, under
  // the punch rate limit per token): no queue, and the machine's load drifts alike for both, so the p50 ratio is the
  // latency of one punch against the other's.
  const alternating = async (what, cyclesOf) => {
    const list = Array.from({ length: ALTERNATING }, (_, j) => cyclesOf(j, world.deviceTokens[j % world.deviceTokens.length])).flat();
    const one = { ...base, connections: 1, requestsFor: () => list };
    if (warmupSeconds > 0) await measure({ ...one, durationSeconds: warmupSeconds });
    print(`  ${durationSeconds} s of ${what}`);
    Object.assign(results, (await measure({ ...one, durationSeconds })).byLabel);
  };
  const renamed = (label, [clockIn, clockOut]) => [
    { ...clockIn, label: `${label} clock-in` },
    { ...clockOut, label: `${label} clock-out` },
  ];
  const [altA, altB] = world.alternating;
  await alternating("phone and kiosk cycles alternating on one connection", (j, token) => [
    ...renamed("phone, alternating:", phoneCycle(altA.phones[j], world.roleId)),
    ...renamed("kiosk, alternating:", kioskCycle(altA.kiosks[j], world, token)),
  ]);
  // The same kiosk cycles once more, their PINs stored at one iteration (what is left without PBKDF2), then the phone's
  // again: the load of a shared machine drifts between phases, so this ratio compares the two phases back to back.
  await cheapPins(ours, [...world.kiosks, ...world.warmers, ...altB.kiosks]);
  const relabel = (suffix, requests) => requests.map((r) => ({ ...r, label: `${r.label}, ${suffix}` }));
  const later = [
    {
      what: "kiosk clock-in/clock-out cycles, PINs stored at 1 iteration (PBKDF2's cost taken out)",
      warm: (i) => kioskCycle(world.warmers[i], world, world.deviceTokens[i]),
      load: (i) => relabel("PIN at 1 iteration", kioskCycle(world.kiosks[i], world, world.deviceTokens[i])),
    },
    {
      what: "the same, each device forgotten before its punch: looked up on its own, as before its read joined the punch's read batch",
      warm: (i) => kioskCycle(world.warmers[i], world, world.deviceTokens[i], true),
      load: (i) => relabel("PIN at 1 iteration, device apart", kioskCycle(world.kiosks[i], world, world.deviceTokens[i], true)),
    },
    {
      what: "phone clock-in/clock-out cycles again",
      warm: (i) => phoneCycle(world.warmers[i], world.roleId),
      load: (i) => relabel("again", phoneCycle(world.phones[i], world.roleId)),
    },
  ];
  const laterProfiles = [];
  for (const phase of later) {
    if (warmupSeconds > 0) await measure({ ...base, durationSeconds: warmupSeconds, requestsFor: phase.warm });
    print(`  ${durationSeconds} s of ${phase.what}`);
    const profiling = profile ? await startProfile(ours.inspectorPort) : null;
    const measured = await measure({ ...base, durationSeconds, requestsFor: phase.load });
    if (profiling) {
      const requests = Object.values(measured.byLabel).reduce((n, r) => n + r.count, 0);
      laterProfiles.push({ what: phase.what, requests, profile: await profiling.stop() });
    }
    Object.assign(results, measured.byLabel);
  }
  await alternating(
    "phone and kiosk cycles alternating on one connection, PINs at 1 iteration, the kiosk's device in its read batch and apart",
    (j, token) => [
      ...renamed("phone, alternating, 1-iteration phase:", phoneCycle(altB.phones[j], world.roleId)),
      ...renamed("kiosk, alternating, PIN at 1 iteration:", kioskCycle(altB.kiosks[j], world, token)),
      ...renamed("kiosk, alternating, PIN at 1 iteration, device apart:", kioskCycle(altB.kiosks[j], world, token, true)),
    ],
  );
  const none = { count: 0, ok: 0, p50: Number.NaN, p99: Number.NaN };
  const row = (label) => {
    const r = results[label] ?? none;
    return [label, String(r.count), String(r.count - r.ok), ms(r.p50), ms(r.p99)];
  };
  print("");
  print(
    table(
      ["operation", "requests", "non-2xx", "p50 ms", "p99 ms"],
      [
        "phone clock-in",
        "kiosk clock-in",
        "phone clock-in, again",
        "kiosk clock-in, PIN at 1 iteration",
        "kiosk clock-in, PIN at 1 iteration, device apart",
        "phone clock-out",
        "kiosk clock-out",
        "phone clock-out, again",
        "kiosk clock-out, PIN at 1 iteration",
        "kiosk clock-out, PIN at 1 iteration, device apart",
        "phone, alternating: clock-in",
        "kiosk, alternating: clock-in",
        "phone, alternating, 1-iteration phase: clock-in",
        "kiosk, alternating, PIN at 1 iteration: clock-in",
        "kiosk, alternating, PIN at 1 iteration, device apart: clock-in",
      ].map(row),
    ),
  );
  print("");
  print("D1 round trips on the organization's shard (one traced request each):");
  for (const { label, trips } of counted) {
    print(`  ${label}: ${trips.length} — ${trips.map((t) => describeRoundTrip(t)).join(" | ")}`);
  }

  const kiosk = results["kiosk clock-in"]?.p50 ?? Number.NaN;
  const phone = results["phone clock-in"]?.p50 ?? Number.NaN;
  const verdict = (r) => `${Number.isFinite(r) ? r.toFixed(2) : "-"}x (target ≤ ${TARGET}x): ${r <= TARGET ? "met" : "NOT met"}`;
  print("");
  print(
    `PBKDF2 derivation (one per kiosk punch): ${ms(derivation)} ms CPU on this machine's Node (WebCrypto in workerd is of the same order)`,
  );
  print(`kiosk clock-in p50 / phone clock-in p50, raw:                        ${verdict(kiosk / phone)}`);
  const cheap = results["kiosk clock-in, PIN at 1 iteration"]?.p50 ?? Number.NaN;
  const phoneAgain = results["phone clock-in, again"]?.p50 ?? Number.NaN;
  print(`kiosk clock-in p50 / phone clock-in p50, PBKDF2 CPU subtracted once: ${verdict((kiosk - derivation) / phone)}`);
  print(
    `kiosk clock-in p50 / phone clock-in p50, PBKDF2 taken out (measured, PINs at 1 iteration, against the phone's phase after it): ${verdict(cheap / phoneAgain)}`,
  );
  const apart = results["kiosk clock-in, PIN at 1 iteration, device apart"]?.p50 ?? Number.NaN;
  print(
    `the same with the device looked up on its own, as before (its own round trip), against the same phone phase: ${verdict(apart / phoneAgain)}`,
  );
  const p50 = (label) => results[label]?.p50 ?? Number.NaN;
  const altPhone = p50("phone, alternating: clock-in");
  const altPhoneCheap = p50("phone, alternating, 1-iteration phase: clock-in");
  print("One connection, phone and kiosk alternating (no queue; both under the same load), clock-in p50:");
  print(`  kiosk / phone, raw:                                ${verdict(p50("kiosk, alternating: clock-in") / altPhone)}`);
  print(
    `  kiosk / phone, PINs at 1 iteration:                ${verdict(p50("kiosk, alternating, PIN at 1 iteration: clock-in") / altPhoneCheap)}`,
  );
  print(
    `  kiosk / phone, PINs at 1 iteration, device apart:  ${verdict(p50("kiosk, alternating, PIN at 1 iteration, device apart: clock-in") / altPhoneCheap)}`,
  );
  print(
    "  (Under saturating load every request also waits for the derivations queued before it on the one isolate, so " +
      "subtracting one derivation understates PBKDF2's share; the measured line is the one to judge the target by.)",
  );
  if (profiles.length === 0) return;
  const [phoneCpu, kioskCpu] = profiles.map(cpuPerRequest);
  print("");
  print(
    `Sampled CPU per request of our Worker (idle left out; clock-ins and clock-outs together): phone ${ms(phoneCpu.total)} ms, ` +
      `kiosk ${ms(kioskCpu.total)} ms, of which PBKDF2 (deriveBits) ${ms(kioskCpu.pbkdf2)} ms per kiosk punch in workerd.`,
  );
  print(
    `Under saturating load latency ≈ connections × CPU per request, so the CPU ratio without PBKDF2 is the fair one: ` +
      `${ms(kioskCpu.total - kioskCpu.pbkdf2)} / ${ms(phoneCpu.total)} = ${verdict((kioskCpu.total - kioskCpu.pbkdf2) / phoneCpu.total)}`,
  );
  const [cheapCpu, apartCpu, phoneAgainCpu] = laterProfiles.map(cpuPerRequest);
  print(
    `The 1-iteration phases: phone (again) ${ms(phoneAgainCpu.total)} ms, kiosk ${ms(cheapCpu.total)} ms (device looked up ` +
      `apart: ${ms(apartCpu.total)} ms), of which PBKDF2 ${ms(cheapCpu.pbkdf2)} ms: CPU ratio ${verdict(cheapCpu.total / phoneAgainCpu.total)}` +
      ` (device apart: ${verdict(apartCpu.total / phoneAgainCpu.total)})`,
  );
  for (const { what, profile: p } of profiles) printProfile(print, `our Worker during ${what}`, p);
  // What is left of the kiosk's extra CPU once PBKDF2 is out: the 1-iteration kiosk phase against the phone's after it.
  printCpuDifference(
    print,
    "kiosk punches, device looked up apart, against the same with the device in the read batch",
    laterProfiles[1],
    laterProfiles[0],
    ["apart", "in batch"],
  );
  printCpuDifference(
    print,
    "kiosk punches with PINs at 1 iteration against the phone's punches after them",
    laterProfiles[0],
    laterProfiles[2],
    ["kiosk", "phone"],
  );
}
