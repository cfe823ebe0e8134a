// Issue "Kiosks": a kiosk's clock-in (PIN checked, then the phone's punch) against a phone's clock-in in the same
// run, target p50 ≤ 1.2× — and the PBKDF2 derivation the PIN check costs, measured apart on this machine.

import { pbkdf2Sync, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { accessToken, expectStatus, seedOrganization } from "../lib/api.mjs";
import { measure } from "../lib/load.mjs";
import { ms, table } from "../lib/report.mjs";
import { startOurs } from "../lib/workers.mjs";

export const name = "kiosk";
export const description = "kiosk clock-in (PIN) vs phone clock-in in the same run, and the PBKDF2 cost apart (issue Kiosks)";

const PIN = "2468";
const TARGET = 1.2;
const SEED_PARALLELISM = 8;

/** The iterations the Worker derives a PIN with (src/features/kiosk/pin-hash.ts), read from the source itself. */
function pinIterations() {
  const source = readFileSync(join(import.meta.dirname, "..", "..", "src", "features", "kiosk", "pin-hash.ts"), "utf8");
  const match = /PIN_ITERATIONS = ([\d_]+)/.exec(source);
  if (!match) throw new Error("PIN_ITERATIONS not found in src/features/kiosk/pin-hash.ts");
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

async function inGroups(items, size, fn) {
  const out = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(fn))));
  return out;
}

/** An organization, an unfenced location with one enrolled kiosk, and staff members with their own tokens and PINs. */
async function seed(ours, connections) {
  const r = ours.request;
  const { org, admin } = await seedOrganization(r, { name: "Bench Kiosk", timezone: "America/New_York" });
  const location = await expectStatus(
    r("POST", `/api/organizations/${org.id}/locations`, { token: admin, body: { name: "Door", timezone: "America/New_York" } }),
    201,
    "location",
  );
  const device = await expectStatus(
    r("POST", `/api/organizations/${org.id}/locations/${location.id}/devices`, { token: admin, body: { name: "Front door" } }),
    201,
    "device",
  );
  const enrolled = await expectStatus(r("POST", "/api/devices/enroll", { body: { enrollmentCode: device.enrollmentCode } }), 200, "enroll");
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
    deviceToken: enrolled.deviceToken,
    phones: await inGroups(labels("Phone"), SEED_PARALLELISM, member),
    kiosks: await inGroups(labels("Kiosk"), SEED_PARALLELISM, member),
    warmers: await inGroups(labels("Warmer"), SEED_PARALLELISM, member),
  };
}

const json = (token) => ({ "content-type": "application/json", authorization: `Bearer ${token}` });
const phoneCycle = (m, roleId) => [
  { label: "phone clock-in", method: "POST", path: `${m.path}/clock-in`, headers: json(m.token), body: JSON.stringify({ roleId }) },
  { label: "phone clock-out", method: "POST", path: `${m.path}/clock-out`, headers: json(m.token), body: "{}" },
];
const kioskCycle = (m, world) => {
  const punch = (label, body) => ({
    label,
    method: "POST",
    path: "/api/kiosk/punches",
    headers: json(world.deviceToken),
    body: JSON.stringify({ employeeId: m.id, pin: PIN, ...body }),
  });
  return [punch("kiosk clock-in", { action: "CLOCK_IN", roleId: world.roleId }), punch("kiosk clock-out", { action: "CLOCK_OUT" })];
};

export async function run({ stateDir, options, print }) {
  const { connections, durationSeconds, warmupSeconds } = options;
  const iterations = pinIterations();
  print(`PBKDF2-SHA-256, ${iterations} iterations (the PIN check's derivation), measured in Node on this machine…`);
  const derivation = pbkdf2Cost(iterations);

  print("Starting our Worker (wrangler dev) and seeding it through the API…");
  const ours = await startOurs(stateDir);
  const world = await seed(ours, connections);
  const base = { url: ours.url, connections };
  const phases = [
    {
      what: "phone clock-in/clock-out cycles",
      warm: (i) => phoneCycle(world.warmers[i], world.roleId),
      load: (i) => phoneCycle(world.phones[i], world.roleId),
    },
    {
      what: "kiosk clock-in/clock-out cycles",
      warm: (i) => kioskCycle(world.warmers[i], world),
      load: (i) => kioskCycle(world.kiosks[i], world),
    },
  ];
  const results = {};
  for (const phase of phases) {
    if (warmupSeconds > 0) await measure({ ...base, durationSeconds: warmupSeconds, requestsFor: phase.warm });
    print(`  ${durationSeconds} s of ${phase.what}`);
    Object.assign(results, (await measure({ ...base, durationSeconds, requestsFor: phase.load })).byLabel);
  }
  const none = { count: 0, ok: 0, p50: Number.NaN, p99: Number.NaN };
  const row = (label) => {
    const r = results[label] ?? none;
    return [label, String(r.count), String(r.count - r.ok), ms(r.p50), ms(r.p99)];
  };
  print("");
  print(
    table(
      ["operation", "requests", "non-2xx", "p50 ms", "p99 ms"],
      ["phone clock-in", "kiosk clock-in", "phone clock-out", "kiosk clock-out"].map(row),
    ),
  );
  const ratio = (results["kiosk clock-in"]?.p50 ?? Number.NaN) / (results["phone clock-in"]?.p50 ?? Number.NaN);
  print("");
  print(
    `kiosk clock-in p50 / phone clock-in p50: ${Number.isFinite(ratio) ? ratio.toFixed(2) : "-"}x (target ≤ ${TARGET}x): ${ratio <= TARGET ? "met" : "NOT met"}`,
  );
  print(
    `PBKDF2 derivation (one per kiosk punch): ${ms(derivation)} ms CPU on this machine's Node (WebCrypto in workerd is of the same order)`,
  );
}
