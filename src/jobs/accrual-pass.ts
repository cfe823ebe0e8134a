import { events } from "@db/schema";
import { type SQL, sql } from "drizzle-orm";
import { auditStatement } from "@/data/audit/audit-entries";
import { chunk } from "@/data/chunk";
import type { Database, Statement } from "@/data/client";
import { inPassScope, type PassScope } from "@/data/clock";
import { frozenHere } from "@/data/freezes";
import { newId } from "@/data/ids";
import { rawAll, rawRun } from "@/data/raw-statement";
import { includedSql, sqlUuidAfter, uuidHead } from "@/data/time-off/inclusion.data";
import { ensureWorkerPolicies } from "@/data/time-off/worker-policy-rows.data";
import { guarded } from "@/data/write/constraint-problems";
import { freezeGuard, organizationSettled } from "@/data/write/guarded-batch";
import type { LimitSettings } from "@/domain/accrual";
import { entriesDue, localDate } from "@/domain/accrual";
import { systemActor } from "@/domain/audit";
import { inclusionStart } from "@/domain/time-off-inclusion";
import { toHours } from "@/domain/time-off-units";

interface ActivePolicy {
  id: string;
  organization_id: string;
  timezone: string;
  limit_settings: string;
  full_day_duration: number;
  units: string;
  carryover_limit: number | null;
  activated_at: number;
  shift_cursor: number | null;
}

interface Balance {
  id: string;
  policy_id: string;
  accrued_through: string | null;
  included_at: number | null;
  worker_created_at: number;
  included: number;
}

export interface PassReport {
  policies: number;
  balances: number;
  entries: number;
  roundTrips: number;
  /** A paged pass (PassPage): where the next page starts, null when this page was the last. */
  nextAfterId?: string | null;
}

/**
 * One page of the pass, so that a large organization's pass is split across invocations (each within D1's queries
 * per invocation): at most `balances` worker policies of each policy, those with ids after `afterId`. The first page
 * (no afterId) also creates missing worker policies; the last runs the per-hour accruals. Pages are resumable and
 * idempotent like the whole pass: a page repeated writes nothing twice.
 */
export interface PassPage {
  balances: number;
  afterId?: string | null;
}

/** Entries per multi-row statement (one JSON parameter each, well under D1's statement size). */
const ENTRIES_PER_STATEMENT = 400;
/** Statements per D1 batch (one round trip). */
const STATEMENTS_PER_BATCH = 50;
/** Shifts edited up to this long before the previous pass are looked at again (clocks and commit order). */
const SHIFT_CURSOR_OVERLAP_MS = 15 * 60_000;

const needsDates = (p: ActivePolicy, limit: LimitSettings) => Boolean(limit.isFixedAmount) || p.carryover_limit !== null;
const earnsPerHour = (limit: LimitSettings) => Boolean(limit.perHourEarnings?.hoursEarned && limit.perHourEarnings?.hoursWorked);

/**
 * The Cron Trigger's time-off pass. Idempotent per (worker policy, period): every entry carries its period key
 * (or shift revision) under the ledger's unique source index and is written with ON CONFLICT DO NOTHING, so a
 * pass run twice, concurrently or late adds each period exactly once and catches up missed ones. A worker
 * policy's `accrued_through` only saves work: it moves in the batch after the entries it covers.
 *   1. Active policies (one read), of organizations not frozen for a move between shards: every batch after it
 *      opens with the freeze guard of those organizations, so a move that starts mid-pass fails the rest of the
 *      pass (nothing is written to a frozen organization) and the next pass catches up.
 *   2. Worker policy rows for every live staff member of those policies (one batch).
 *   3. Balances whose fixed accruals or year-end carryover may be due: those not yet handled today. Those the
 *      policy does not include get no entries; their `included_at` moves to now (the earliest inclusion start).
 *   4. Fixed accruals, then carryovers year by year (the expiry reads the balance the accruals left), then the
 *      watermarks; per-hour accruals for shifts changed since each policy's cursor, with the new cursor. Each batch
 *      that wrote entries ends with one `time_off_policy.accrued` event per policy they belong to (how many, their
 *      hours) and its audit entries (SYSTEM `accrual-pass`): a pass that finds nothing due records nothing.
 */
/** Which organizations a pass covers and how much of them: the live ones by default (sandboxes at their own time), whole. */
export interface PassOptions {
  page?: PassPage;
  scope?: PassScope;
}

export async function runAccrualPass(db: Database, now = new Date(), { page, scope = "live" }: PassOptions = {}): Promise<PassReport> {
  const report: PassReport = { policies: 0, balances: 0, entries: 0, roundTrips: 0 };
  const policies = await rawAll<ActivePolicy>(
    db,
    sql`SELECT p.id, p.organization_id, o.timezone, p.limit_settings, p.full_day_duration, p.units, p.carryover_limit,
        p.activated_at, p.shift_cursor
      FROM time_off_policies p JOIN organizations o ON o.id = p.organization_id
      WHERE p.status = 'Active' AND p.deleted_at IS NULL
        AND NOT ${frozenHere(sql`p.organization_id`)}
        AND ${inPassScope(sql`p.organization_id`, scope)}`,
  );
  report.roundTrips++;
  report.policies = policies.length;
  if (policies.length === 0) return report;
  const limits = new Map(policies.map((p) => [p.id, JSON.parse(p.limit_settings) as LimitSettings]));
  const today = new Map(policies.map((p) => [p.id, localDate(now, p.timezone)]));
  const dated = policies.filter((p) => needsDates(p, limits.get(p.id)!));

  const reads = dated.map((p) => rawAll<Balance>(db, balancesDue(p.id, today.get(p.id)!, page)));
  const ensure = (page?.afterId ? [] : policies).map((p) =>
    ensureWorkerPolicies(
      db,
      p.organization_id,
      sql`SELECT ${p.id} AS policy_id, id AS worker_id FROM staff_members WHERE organization_id = ${p.organization_id} AND deleted_at IS NULL`,
      now.getTime(),
    ),
  );
  const guard = () => freezeGuard(db, [...new Set(policies.map((p) => p.organization_id))]);
  const results = await runBatches(
    db,
    [...ensure, ...reads].map((statement) => ({ statement })),
    report,
    guard,
    now,
  );
  const pages = results.slice(ensure.length) as Balance[][];
  const read = pages.flat();
  // The next page starts after the smallest last id of a full page (a policy whose page was not full is done).
  const full = page ? pages.filter((rows) => rows.length === page.balances).map((rows) => rows.at(-1)!.id) : [];
  const last = !page || full.length === 0;
  if (page) report.nextAfterId = last ? null : full.sort()[0]!;
  const balances = read.filter((b) => b.included === 1);
  // An excluded balance's inclusion start moves with each pass, so a worker the rule includes later accrues from
  // about then (and gets an AllAtOnce grant), not from the policy's activation.
  const excluded = read.filter((b) => b.included !== 1).map((b) => b.id);
  report.balances = balances.length;

  const nowMs = now.getTime();
  await runBatches(db, passWrites(db, { balances, excluded, policies, limits, now, nowMs, report, perHour: last }), report, guard, now);
  return report;
}

/** A statement of the pass; `entries`: the id head of the ledger entries it writes (sqlUuidAfter), if it writes any. */
interface PassWrite {
  statement: Statement;
  entries?: string;
}

/** A statement writing ledger entries with ids after a fresh head. */
function ledgerWrite(build: (id: SQL) => Statement): PassWrite {
  const head = uuidHead();
  return { statement: build(sqlUuidAfter(head)), entries: head };
}

/**
 * The pass's write statements in their order, built as the batches take them: the fixed accruals as each balance's
 * are computed (ENTRIES_PER_STATEMENT a statement), then carryovers and watermarks. Only one batch's statements
 * (and their JSON) are held at a time, never the whole pass's (110,000 entries at 10,000 staff).
 */
function* passWrites(
  db: Database,
  {
    balances,
    excluded,
    policies,
    limits,
    now,
    nowMs,
    report,
    perHour,
  }: {
    balances: Balance[];
    excluded: string[];
    policies: ActivePolicy[];
    limits: Map<string, LimitSettings>;
    now: Date;
    nowMs: number;
    report: PassReport;
    /** The per-hour accruals too (a paged pass: its last page). */
    perHour: boolean;
  },
): Generator<PassWrite> {
  const byId = new Map(policies.map((p) => [p.id, p]));
  let accruals: { w: string; o: string; h: number; d: string; k: string }[] = [];
  const carryovers = new Map<string, { w: string; o: string; limit: number }[]>();
  const touched: string[] = [];
  const handled = new Map<string, string[]>();
  for (const b of balances) {
    const p = byId.get(b.policy_id)!;
    const limit = limits.get(p.id)!;
    const start = inclusionStart(
      new Date(p.activated_at),
      new Date(b.worker_created_at),
      b.included_at === null ? null : new Date(b.included_at),
    );
    const due = entriesDue(
      { limitSettings: limit, fullDayDuration: p.full_day_duration, carryoverLimit: p.carryover_limit },
      start,
      now,
      p.timezone,
      b.accrued_through,
    );
    for (const e of due.accruals) {
      accruals.push({ w: b.id, o: p.organization_id, h: e.hours, d: e.effectiveDate, k: e.periodKey });
      report.entries++;
      if (accruals.length === ENTRIES_PER_STATEMENT) {
        yield accrualStatement(db, accruals, nowMs);
        accruals = [];
      }
    }
    for (const year of due.carryovers) {
      const list = carryovers.get(year.effectiveDate) ?? [];
      list.push({
        w: b.id,
        o: p.organization_id,
        limit: toHours(p.carryover_limit!, { units: p.units, fullDayDuration: p.full_day_duration }),
      });
      carryovers.set(year.effectiveDate, list);
    }
    if (due.accruals.length > 0 || due.carryovers.length > 0) touched.push(b.id);
    const handledToday = handled.get(due.today);
    if (handledToday) handledToday.push(b.id);
    else handled.set(due.today, [b.id]);
  }
  if (accruals.length > 0) yield accrualStatement(db, accruals, nowMs);
  for (const year of [...carryovers.keys()].sort()) {
    for (const part of chunk(carryovers.get(year)!, ENTRIES_PER_STATEMENT)) {
      yield ledgerWrite((id) =>
        rawRun(
          db,
          sql`INSERT INTO time_off_ledger (id, organization_id, worker_policy_id, kind, hours, effective_date, source_type, source_id, created_at)
            SELECT ${id}, c.o, c.w, 'carryover', -(c.balance - c.lim), ${year}, 'year', ${`year:${year.slice(0, 4)}`}, ${nowMs}
            FROM (SELECT json_extract(value, '$.o') AS o, json_extract(value, '$.w') AS w, json_extract(value, '$.limit') AS lim,
                (SELECT COALESCE(SUM(hours), 0) FROM time_off_ledger l WHERE l.worker_policy_id = json_extract(value, '$.w') AND l.effective_date < ${year}) AS balance
              FROM json_each(${JSON.stringify(part)})) AS c
            WHERE c.balance > c.lim
            ON CONFLICT (worker_policy_id, kind, source_type, source_id) DO NOTHING`,
        ),
      );
    }
  }
  for (const [date, ids] of handled) {
    for (const part of chunk(ids, 2000)) {
      yield {
        statement: rawRun(
          db,
          sql`UPDATE worker_policies SET accrued_through = ${date} WHERE id IN (SELECT value FROM json_each(${JSON.stringify(part)}))`,
        ),
      };
    }
  }
  for (const part of chunk(excluded, 2000)) {
    yield {
      statement: rawRun(
        db,
        sql`UPDATE worker_policies SET included_at = ${nowMs} WHERE id IN (SELECT value FROM json_each(${JSON.stringify(part)}))`,
      ),
    };
  }
  for (const part of chunk(touched, 2000)) {
    yield {
      statement: rawRun(
        db,
        sql`UPDATE worker_policies SET updated_at = ${nowMs} WHERE id IN (SELECT value FROM json_each(${JSON.stringify(part)}))`,
      ),
    };
  }
  if (!perHour) return;
  for (const p of policies.filter((x) => earnsPerHour(limits.get(x.id)!))) yield* perHourStatements(db, p, limits.get(p.id)!, nowMs);
}

/** One statement of fixed accruals (each entry once, under the ledger's unique source index). */
const accrualStatement = (db: Database, part: { w: string; o: string; h: number; d: string; k: string }[], nowMs: number) =>
  ledgerWrite((id) =>
    rawRun(
      db,
      sql`INSERT INTO time_off_ledger (id, organization_id, worker_policy_id, kind, hours, effective_date, source_type, source_id, created_at)
      SELECT ${id}, json_extract(value, '$.o'), json_extract(value, '$.w'), 'accrual', json_extract(value, '$.h'),
        json_extract(value, '$.d'), 'period', json_extract(value, '$.k'), ${nowMs}
      FROM json_each(${JSON.stringify(part)}) WHERE true
      ON CONFLICT (worker_policy_id, kind, source_type, source_id) DO NOTHING`,
    ),
  );

/**
 * Per-hour accrual as an idempotent recompute per (worker policy, shift): a shift whose payable minutes differ from
 * those its latest entry recorded (`basis`; a deleted shift counts 0) gets one entry of the difference between what
 * it earns now and what its entries already hold, numbered `<shift id>#<revision>` so two passes racing write it
 * once. A positive difference is trimmed to the policy's maximum balance, less what the same pass grants the
 * balance for its earlier shifts (in shift id order), so several shifts never add up past it. Only shifts changed since the policy's
 * cursor are looked at, so timesheet and punch writes stay untouched.
 */
function perHourStatements(db: Database, p: ActivePolicy, limit: LimitSettings, nowMs: number): PassWrite[] {
  const earnings = limit.perHourEarnings!;
  const rate = earnings.hoursEarned! / earnings.hoursWorked! / 60;
  const cap = earnings.isLimitedMaximumBalance && earnings.maximumHoursBalance !== undefined ? earnings.maximumHoursBalance : null;
  const since = (p.shift_cursor ?? p.activated_at) - SHIFT_CURSOR_OVERLAP_MS;
  const shiftEntries = sql.raw(
    `l.worker_policy_id = wp.id AND l.source_type = 'shift' AND l.source_id >= sh.id || '#' AND l.source_id < sh.id || '$'`,
  );
  const basis = sql.raw(`(CASE WHEN sh.deleted_at IS NULL THEN sh.payable_duration ELSE 0 END)`);
  const delta = sql`(${basis} * ${rate} - (SELECT COALESCE(SUM(l.hours), 0) FROM time_off_ledger l WHERE ${shiftEntries}))`;
  const capped =
    cap === null ? sql.raw("x.d") : sql`(CASE WHEN x.d <= 0 THEN x.d ELSE MIN(x.d, MAX(0, ${cap} - x.balance - x.earlier)) END)`;
  return [
    ledgerWrite((id) =>
      rawRun(
        db,
        sql`INSERT INTO time_off_ledger (id, organization_id, worker_policy_id, kind, hours, effective_date, source_type, source_id, basis, created_at)
        SELECT ${id}, x.o, x.w, 'accrual', ${capped}, x.business_date, 'shift', x.source_id, x.basis, ${nowMs}
        FROM (SELECT q.*,
            COALESCE(SUM(MAX(q.d, 0)) OVER (PARTITION BY q.w ORDER BY q.shift_id ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS earlier
          FROM (SELECT wp.organization_id AS o, wp.id AS w, sh.id AS shift_id, sh.business_date, ${basis} AS basis, ${delta} AS d,
              sh.id || '#' || printf('%04d', (SELECT COUNT(*) FROM time_off_ledger l WHERE ${shiftEntries})) AS source_id,
              (SELECT COALESCE(SUM(l.hours), 0) FROM time_off_ledger l WHERE l.worker_policy_id = wp.id) AS balance
            FROM shifts sh JOIN worker_policies wp ON wp.policy_id = ${p.id} AND wp.worker_id = sh.employee_id
              JOIN staff_members s ON s.id = sh.employee_id JOIN time_off_policies p ON p.id = wp.policy_id
            WHERE sh.organization_id = ${p.organization_id} AND sh.updated_at >= ${since} AND sh.end_at IS NOT NULL
              AND sh.start_at >= MAX(p.activated_at, s.created_at, COALESCE(wp.included_at, 0)) AND ${includedSql()}
              AND COALESCE((SELECT l.basis FROM time_off_ledger l WHERE ${shiftEntries} ORDER BY l.source_id DESC LIMIT 1), 0) <> ${basis}) AS q
          ) AS x
        WHERE true
        ON CONFLICT (worker_policy_id, kind, source_type, source_id) DO NOTHING`,
      ),
    ),
    { statement: rawRun(db, sql`UPDATE time_off_policies SET shift_cursor = ${nowMs} WHERE id = ${p.id}`) },
  ];
}

/**
 * The statements in batches of STATEMENTS_PER_BATCH, each opened by the guard; taken from `writes` batch by batch. A
 * batch writing ledger entries ends with their events and audit entries (accruedEvents).
 */
async function runBatches(
  db: Database,
  writes: Iterable<PassWrite>,
  report: PassReport,
  guard: () => Statement,
  now: Date,
): Promise<unknown[]> {
  const results: unknown[] = [];
  let part: PassWrite[] = [];
  const run = async () => {
    const heads = part.flatMap((write) => (write.entries ? [write.entries] : []));
    const eventId = newId();
    const recorded = heads.length
      ? [accruedEvents(db, heads, now, eventId), auditStatement(db, systemActor("accrual-pass"), [eventId])]
      : [];
    const statements = part.map((write) => write.statement);
    const [, ...answers] = await guarded(db.batch([guard(), ...statements, ...recorded]), [organizationSettled]);
    results.push(...answers.slice(0, statements.length));
    report.roundTrips++;
    part = [];
  };
  for (const statement of writes) {
    part.push(statement);
    if (part.length === STATEMENTS_PER_BATCH) await run();
  }
  if (part.length > 0) await run();
  return results;
}

/**
 * One `time_off_policy.accrued` event per policy whose balances got entries from the batch's statements (ids after
 * `heads`, made now: an entry ON CONFLICT DO NOTHING skipped is not there), in each organization's next sequences,
 * ids `<eventId>.<n>` (the batch's audit statement finds them so). None when the statements wrote nothing.
 */
function accruedEvents(db: Database, heads: readonly string[], now: Date, eventId: string): Statement {
  const inOrganization = sql.raw("row_number() OVER (PARTITION BY a.organization_id ORDER BY a.policy_id)");
  return db.insert(events).select(
    sql`SELECT ${`${eventId}.`} || row_number() OVER (ORDER BY a.policy_id), a.organization_id,
        coalesce((SELECT max(e.sequence) FROM events e WHERE e.organization_id = a.organization_id), 0) + ${inOrganization},
        'time_off_policy.accrued', ${now.getTime()}, 'wire', json_object('id', a.policy_id, 'entries', a.entries, 'hours', a.hours)
      FROM (SELECT wp.policy_id, l.organization_id, count(*) AS entries, round(sum(l.hours), 6) AS hours
        FROM json_each(${JSON.stringify(heads)}) j JOIN time_off_ledger l ON l.id >= j.value AND l.id < j.value || '/'
          JOIN worker_policies wp ON wp.id = l.worker_policy_id
        WHERE l.created_at = ${now.getTime()}
        GROUP BY wp.policy_id, l.organization_id) a`,
  );
}

/**
 * The balances of policy `policyId` not yet accrued through `today`: with `page`, the next `page.balances` by id after
 * `page.afterId`, walked in worker_policies_policy_id's order (a page reads its own rows, not the policy's every one).
 */
export const balancesDue = (policyId: string, today: string, page?: PassPage): SQL =>
  sql`SELECT wp.id, wp.policy_id, wp.accrued_through, wp.included_at, s.created_at AS worker_created_at, ${includedSql()} AS included
    FROM worker_policies wp JOIN staff_members s ON s.id = wp.worker_id JOIN time_off_policies p ON p.id = wp.policy_id
    WHERE wp.policy_id = ${policyId} AND s.deleted_at IS NULL
      AND (wp.accrued_through IS NULL OR wp.accrued_through < ${today})
      ${page?.afterId ? sql`AND wp.id > ${page.afterId}` : sql``}
    ${page ? sql`ORDER BY wp.id LIMIT ${page.balances}` : sql``}`;
