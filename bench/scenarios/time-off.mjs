// Issue 9: 1,000 workers × 3 policies × 52 weekly accruals. The Cron accrual pass over the 3,000 balances (D1 round
// trips, statements, seconds; then again, to show it adds nothing twice), the worker-policies listing and the
// time-offs listing (operation 9) walked page by page with D1's rows_read per page next to the rows_read of a
// hand-written raw SQL statement answering the same page, in the same run on the same data.
import { expectStatus, seedOrganization } from "../lib/api.mjs";
import { table } from "../lib/report.mjs";
import { startOurs, traced } from "../lib/workers.mjs";

export const name = "time-off";
export const description = "1,000 workers × 3 policies × 52 weekly accruals: the Cron pass, worker-policies and time-offs pages (issue 9)";

const WORKERS = 1000;
const POLICIES = ["Vacation", "Sick", "Personal"];
/** Policies active and workers employed from this Monday; the pass runs on the 52nd Monday after it. */
const START = "2025-01-06T00:00:00Z";
const PASS_AT = "2025-12-29T12:00:00Z";
const WINDOW = { startTime: "2025-12-01", endTime: "2025-12-31" };
const PAGE_LIMIT = 100;
const MAX_PAGES = 100;

const sql = (ours, text, params = []) =>
  expectStatus(ours.request("POST", "/__bench/sql", { body: { sql: text, params } }), 200, "bench sql");
const nextOf = (headers) => /<([^>]+)>;\s*rel="next"/.exec(headers.get("Link") ?? "")?.[1] ?? null;
const sum = (xs) => xs.reduce((a, b) => a + (b ?? 0), 0);
const x = (v) => (Number.isFinite(v) ? `${v.toFixed(2)}x` : "-");

async function seed(ours, print) {
  const r = ours.request;
  const started = Date.now();
  const { org, admin } = await seedOrganization(r, { name: "Bench Time Off", timezone: "UTC" });
  const records = Array.from({ length: WORKERS }, (_, i) => ({
    externalId: `w-${10001 + i}`,
    name: `Worker ${i + 1}`,
    externalPayrollId: `p-${i + 1}`,
  }));
  await expectStatus(r("POST", `/api/organizations/${org.id}/staffmembers/sync`, { token: admin, body: { records } }), 200, "staff sync");
  const types = await expectStatus(r("GET", `/api/organizations/${org.id}/policies/types`, { token: admin }), 200, "types");
  const policies = [];
  for (const kind of POLICIES) {
    const body = {
      name: `${kind} (weekly)`,
      typeId: types.find((t) => t.type === kind).id,
      requiresApproval: false,
      allowNegativeBalance: true,
      defaultSettings: { assignedStaff: { type: "All" } },
      limitSettings: {
        isFixedAmount: true,
        fixedAmount: { hours: 2, accrualCycle: "Periodic", accrualFrequency: "EveryOneWeek", accrualDay: "Monday" },
      },
    };
    const policy = await expectStatus(r("POST", `/api/organizations/${org.id}/policies`, { token: admin, body }), 201, "policy");
    await expectStatus(r("PATCH", `/api/organizations/${org.id}/policies/${policy.id}/activate`, { token: admin }), 200, "activate");
    policies.push(policy);
  }
  const start = Date.parse(START);
  await sql(ours, "UPDATE time_off_policies SET activated_at = ? WHERE organization_id = ?", [start, org.id]);
  await sql(ours, "UPDATE staff_members SET created_at = ? WHERE organization_id = ?", [start, org.id]);
  print(
    `  seeded ${WORKERS} workers (one sync), ${policies.length} Active weekly policies (2 h every Monday) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return { org, admin, policies };
}

/** One approved request per balance in December (a different day per policy) and its usage entry, in bulk. */
async function seedTimeOffs(ours, world) {
  const days = ["2025-12-08", "2025-12-15", "2025-12-22"];
  const now = Date.parse(PASS_AT);
  for (const [i, policy] of world.policies.entries()) {
    const start = Date.parse(`${days[i]}T09:00:00Z`);
    await sql(
      ours,
      `INSERT INTO time_off_requests (id, organization_id, worker_id, policy_id, worker_policy_id, start_at, end_at, is_all_day,
         hour_configuration, total_hours, status, timezone, utc_offset, submitted_at, decided_at, active, created_at, updated_at)
       SELECT lower(hex(randomblob(16))), wp.organization_id, wp.worker_id, wp.policy_id, wp.id, ?, ?, 0, ?, 8, 'approved', 'UTC', 0, ?, ?, 1, ?, ?
       FROM worker_policies wp WHERE wp.policy_id = ?`,
      [start, start + 8 * 3_600_000, JSON.stringify([{ date: days[i], hours: 8 }]), now, now, now, now, policy.id],
    );
  }
  await sql(
    ours,
    `INSERT INTO time_off_ledger (id, organization_id, worker_policy_id, kind, hours, effective_date, source_type, source_id, created_at)
     SELECT lower(hex(randomblob(16))), organization_id, worker_policy_id, 'usage', -total_hours, json_extract(hour_configuration, '$[0].date'), 'request', id, ?
     FROM time_off_requests WHERE organization_id = ?`,
    [now, world.org.id],
  );
}

/** A listing walked through `Link: rel="next"`, every page traced. */
async function walk(ours, token, first) {
  const pages = [];
  let path = first;
  while (path && pages.length < MAX_PAGES) {
    const res = await traced(ours, "GET", path, { token });
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${res.text.slice(0, 300)}`);
    pages.push({ path, res });
    path = nextOf(res.headers);
  }
  return pages;
}

/** The same page by hand: the page's rows with their balances, one statement (what a minimal implementation reads). */
const RAW_WORKER_POLICIES = `SELECT wp.id, wp.worker_id, s.name, s.external_id, s.external_payroll_id,
    (SELECT COALESCE(SUM(hours), 0) FROM time_off_ledger WHERE worker_policy_id = wp.id) AS balance,
    (SELECT COALESCE(SUM(total_hours), 0) FROM time_off_requests WHERE worker_policy_id = wp.id AND status = 'pending') AS pending
  FROM staff_members s JOIN worker_policies wp ON wp.worker_id = s.id AND wp.policy_id = ?
  WHERE s.organization_id = ? AND s.deleted_at IS NULL AND s.id > ? ORDER BY s.id LIMIT ?`;

const RAW_TIME_OFFS = `SELECT r.*, p.name, p.units, p.full_day_duration,
    (SELECT COALESCE(SUM(hours), 0) FROM time_off_ledger WHERE worker_policy_id = r.worker_policy_id) AS balance
  FROM time_off_requests r JOIN time_off_policies p ON p.id = r.policy_id
  WHERE r.organization_id = ? AND r.status = 'approved' AND r.deleted_at IS NULL AND r.start_at < ? AND r.end_at > ? AND r.id > ?
  ORDER BY r.id LIMIT ?`;

function pageTable(pages, rawReads) {
  const rows = pages.map(({ res }, i) => {
    const read = sum(res.roundTrips.flatMap((t) => t.rowsRead));
    const returned = res.body.length;
    return {
      cells: [
        String(i + 1),
        String(returned),
        String(res.roundTrips.length),
        String(read),
        x(read / Math.max(returned, 1)),
        String(rawReads[i]),
        x(read / rawReads[i]),
      ],
      ratio: read / rawReads[i],
    };
  });
  return {
    text: table(
      ["page", "rows", "round trips", "rows read (ours)", "read/row", "rows read (raw SQL)", "ours/raw"],
      rows.map((r) => r.cells),
    ),
    ratios: rows.map((r) => r.ratio),
  };
}

export async function run({ stateDir, print }) {
  print("Starting our Worker (wrangler dev, bench/counting-entry.ts) and seeding it…");
  const ours = await startOurs(stateDir);
  const world = await seed(ours, print);

  print("");
  print(`Cron accrual pass at ${PASS_AT} (52 Mondays since ${START.slice(0, 10)}), D1 counted at the binding:`);
  const passes = [];
  for (const label of ["first pass (52 weeks due)", "second pass, same instant", "next pass, 30 min later"]) {
    const at = label.startsWith("next") ? new Date(Date.parse(PASS_AT) + 30 * 60_000).toISOString() : PASS_AT;
    const started = Date.now();
    const res = await expectStatus(ours.request("POST", "/__bench/accrual-pass", { body: { now: at } }), 200, "accrual pass");
    passes.push([
      label,
      String(res.report.balances),
      String(res.report.entries),
      String(res.roundTrips),
      String(res.statements),
      String(res.rowsRead),
      String(res.rowsWritten),
      ((Date.now() - started) / 1000).toFixed(2),
    ]);
  }
  print(table(["pass", "balances handled", "entries due", "round trips", "statements", "rows read", "rows written", "seconds"], passes));
  const [
    {
      results: [ledger],
    },
  ] = [await sql(ours, "SELECT COUNT(*) AS n, SUM(hours) AS hours FROM time_off_ledger WHERE organization_id = ?", [world.org.id])];
  print(
    `  ledger after the passes: ${ledger.n} entries (${WORKERS * POLICIES.length} balances × 52 = ${WORKERS * POLICIES.length * 52}), Σ ${ledger.hours} h`,
  );

  await seedTimeOffs(ours, world);
  const orgPath = `/api/organizations/${world.org.id}`;

  print("");
  const policy = world.policies[0];
  const wpPages = await walk(ours, world.admin, `${orgPath}/policies/${policy.id}/worker-policies?limit=${PAGE_LIMIT}`);
  const wpRaw = [];
  let after = "";
  for (const { res } of wpPages) {
    const raw = await sql(ours, RAW_WORKER_POLICIES, [policy.id, world.org.id, after, PAGE_LIMIT + 1]);
    wpRaw.push(raw.rowsRead);
    after = res.body.at(-1)?.workerId ?? after;
  }
  const wp = pageTable(wpPages, wpRaw);
  print(
    `GET …/policies/{id}/worker-policies?limit=${PAGE_LIMIT}: ${wpPages.length} pages, each row with its balance over 52 accruals + 1 usage:`,
  );
  print(wp.text);
  print(`  ours/raw SQL rows read: ${x(Math.min(...wp.ratios))} to ${x(Math.max(...wp.ratios))}`);

  print("");
  const toPages = await walk(
    ours,
    world.admin,
    `${orgPath}/time-off-requests/time-offs?startTime=${WINDOW.startTime}&endTime=${WINDOW.endTime}&limit=${PAGE_LIMIT}`,
  );
  const toRaw = [];
  after = "";
  const windowStart = Date.parse(`${WINDOW.startTime}T00:00:00Z`);
  const windowEnd = Date.parse(`${WINDOW.endTime}T00:00:00Z`) + 86_400_000;
  for (const { res } of toPages) {
    const raw = await sql(ours, RAW_TIME_OFFS, [world.org.id, windowEnd, windowStart, after, PAGE_LIMIT + 1]);
    toRaw.push(raw.rowsRead);
    after = res.body.at(-1)?.id ?? after;
  }
  const to = pageTable(toPages, toRaw);
  print(
    `GET …/time-off-requests/time-offs?startTime=${WINDOW.startTime}&endTime=${WINDOW.endTime}&limit=${PAGE_LIMIT} (operation 9): ${toPages.length} pages of ${WORKERS * POLICIES.length} approved requests:`,
  );
  print(to.text);
  print(`  ours/raw SQL rows read: ${x(Math.min(...to.ratios))} to ${x(Math.max(...to.ratios))}`);

  print("");
  const one = await traced(ours, "GET", `${orgPath}/worker-policies?workerId=${wpPages[0].res.body[0].workerId}`, { token: world.admin });
  print(
    `GET …/worker-policies?workerId= (one worker, ${one.body.length} balances): ${one.roundTrips.length} round trip(s), ` +
      `${sum(one.roundTrips.flatMap((t) => t.rowsRead))} rows read, balances ${one.body.map((b) => b.hoursBalance).join(", ")} h`,
  );
}
