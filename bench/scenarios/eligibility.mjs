// Issue 19: eligibility for a slot at a location of 200 workers (each with a weekly availability rule and four
// entries that week), against the raw SQL of the same request (its traced round trips sent again by
// /__bench/replay); D1 round trips and rows read.
import { accessToken, expectStatus, seedOrganization } from "../lib/api.mjs";
import { measure } from "../lib/load.mjs";
import { comparisonTable, table } from "../lib/report.mjs";
import { inGroups } from "../lib/seeding.mjs";
import { describeRoundTrip, startOurs, traced } from "../lib/workers.mjs";

export const name = "eligibility";
export const description = "A 200-worker location: who fits a slot, with availability, time off, entries and pay rules (issue 19)";

const WORKERS = 200;
const PARALLEL = 8;
/** 2027-03-15 is a Monday; the slot is that morning, local time in New York. */
const SLOT = { startTime: "2027-03-15T10:00:00Z", endTime: "2027-03-15T14:00:00Z" };
const WEEK = ["2027-03-16", "2027-03-17", "2027-03-18", "2027-03-19"];

async function seed(ours, print) {
  const r = ours.request;
  const started = Date.now();
  const { org, admin } = await seedOrganization(r, { name: "Bench Rota", timezone: "America/New_York" });
  const path = `/api/organizations/${org.id}`;
  const location = await expectStatus(
    r("POST", `${path}/locations`, { token: admin, body: { name: "Store", timezone: "America/New_York" } }),
    201,
    "location",
  );
  const records = Array.from({ length: WORKERS }, (_, i) => ({
    externalId: `w-${1001 + i}`,
    name: `Worker ${i + 1}`,
    locationIds: [location.id],
  }));
  await expectStatus(r("POST", `${path}/staffmembers/sync`, { token: admin, body: { records } }), 200, "staff sync");
  const staff = await expectStatus(r("GET", `${path}/staffmembers?limit=500`, { token: admin }), 200, "staff list");
  const roleId = org.defaults.roles[0].id;
  // Rules through the API (it writes their occurrences), spread over tokens: 600 requests a minute each.
  const tokens = await Promise.all(Array.from({ length: 4 }, () => accessToken(r, { organizationId: org.id })));
  await inGroups(staff, PARALLEL, (s, i) =>
    expectStatus(
      r("POST", `${path}/staffmembers/${s.id}/availability`, {
        token: tokens[i % tokens.length],
        body: {
          type: i % 3 === 0 ? "UNAVAILABLE" : "PREFERRED",
          startTime: "2027-03-01T08:00:00Z",
          endTime: "2027-03-01T12:00:00Z",
          recurrence: "FREQ=WEEKLY;BYDAY=MO",
        },
      }),
      201,
      "availability",
    ),
  );
  // The entries in bulk (one statement): four 09:00–17:00 EDT days of each worker, published.
  const days = WEEK.map((day) => Date.parse(`${day}T13:00:00Z`));
  const now = Date.now();
  await expectStatus(
    r("POST", "/__bench/sql", {
      body: {
        sql: `INSERT INTO schedule_entries (id, organization_id, location_id, employee_id, role_id, start_at, end_at, utc_offset,
            timezone, breaks, is_draft, published_at, active, created_at, updated_at)
          SELECT lower(hex(randomblob(16))), s.organization_id, ?, s.id, ?, d.value, d.value + 28800000, -240,
            'America/New_York', '[]', 0, ?, 1, ?, ?
          FROM staff_members s, json_each(?) d WHERE s.organization_id = ?`,
        params: [location.id, roleId, now, now, now, JSON.stringify(days), org.id],
      },
    }),
    200,
    "entries",
  );
  const entries = { length: WORKERS * WEEK.length };
  await expectStatus(
    r("POST", `${path}/pay-rules`, { token: admin, body: { name: "FLSA", effectiveFrom: "2027-01-01", preset: "FLSA" } }),
    201,
    "rules",
  );
  print(
    `  seeded ${WORKERS} workers, ${WORKERS} weekly availability rules, ${entries.length} entries in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return { org, admin, url: `${path}/locations/${location.id}/schedules/eligibility?${new URLSearchParams(SLOT)}` };
}

const sum = (xs) => xs.reduce((a, b) => a + (b ?? 0), 0);

export async function run({ stateDir, options, print }) {
  print("Starting our Worker (wrangler dev, bench/counting-entry.ts) and seeding it…");
  const ours = await startOurs(stateDir);
  const world = await seed(ours, print);
  const res = await traced(ours, "GET", world.url, { token: world.admin });
  if (res.status !== 200) throw new Error(`eligibility: ${res.status} ${res.text.slice(0, 300)}`);
  const replayBody = { trips: res.roundTrips.map(({ call, statements, params }) => ({ call, statements, params })) };
  await expectStatus(ours.request("POST", "/__bench/replay", { body: replayBody }), 200, "replay");
  // A token per connection: the API's rate limit (600 a minute per token) would otherwise answer the load 429.
  const tokens = await Promise.all(
    Array.from({ length: options.connections }, () => accessToken(ours.request, { organizationId: world.org.id })),
  );
  const phase = async (label, request) => {
    const base = {
      url: ours.url,
      connections: options.connections,
      requestsFor: (i) => [
        {
          label,
          ...request,
          headers: { ...request.headers, ...(request.headers.authorization ? { authorization: `Bearer ${tokens[i]}` } : {}) },
        },
      ],
    };
    if (options.warmupSeconds > 0) await measure({ ...base, durationSeconds: options.warmupSeconds });
    print(`  ${options.durationSeconds} s of ${label}`);
    return (await measure({ ...base, durationSeconds: options.durationSeconds })).byLabel[label];
  };
  const oursResult = await phase("eligibility", { method: "GET", path: world.url, headers: { authorization: `Bearer ${world.admin}` } });
  const rawResult = await phase("raw SQL", {
    method: "POST",
    path: "/__bench/replay",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(replayBody),
  });
  print("");
  print(comparisonTable([{ label: "eligibility, 200 workers", ours: oursResult, baseline: rawResult }]).replaceAll("baseline", "raw SQL "));
  const eligible = res.body.filter((r) => r.eligible).length;
  print(
    `  ${res.body.length} workers ranked: ${eligible} eligible, ${res.body.filter((r) => r.reasons.includes("UNAVAILABLE")).length} unavailable, ${res.body.filter((r) => r.preferred).length} preferring the slot.`,
  );
  print("");
  print(
    table(
      ["round trip", "statements", "rows read", "rows returned"],
      res.roundTrips.map((t, i) => [
        `${i + 1}. ${describeRoundTrip(t)}`,
        String(t.statements.length),
        String(sum(t.rowsRead)),
        String(sum(t.rowsReturned)),
      ]),
    ),
  );
}
