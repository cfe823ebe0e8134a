// Issue 11: the outbox drained to a local receiver — 10,000 events delivered through the queue, signed, in order —
// against the same signed POSTs sent straight from node; and what an event costs a clock-in in D1 round trips.
import { setTimeout as sleep } from "node:timers/promises";
import { accessToken, expectStatus, seedOrganization } from "../lib/api.mjs";
import { describeEventCost, eventCost } from "../lib/event-trips.mjs";
import { sendDirectly, startReceiver } from "../lib/receiver.mjs";
import { recordedTrips } from "../lib/recording.mjs";
import { ratio, table } from "../lib/report.mjs";
import { freePort } from "../lib/servers.mjs";
import { describeRoundTrip, startOurs, traced } from "../lib/workers.mjs";

export const name = "webhooks";
export const description = "10,000 events drained to a local receiver, signed and in order; event cost per clock-in (issue 11)";

const EVENTS = 10_000;
/** The bench's receiver listens on the first free port of these. */
const RECEIVER_PORT = 8781;
/** How long the drain may take before the scenario gives up waiting and prints what arrived. */
const DELIVERY_TIMEOUT_MS = 150_000;
const POSITION = { latitude: 40.748817, longitude: -73.985428, accuracy: 12 };

async function seed(ours) {
  const r = ours.request;
  const { org, admin } = await seedOrganization(r, { name: "Bench Hooks", timezone: "America/New_York" });
  const location = await expectStatus(
    r("POST", `/api/organizations/${org.id}/locations`, { token: admin, body: { name: "Flatiron", timezone: "America/New_York" } }),
    201,
    "location",
  );
  const staff = await expectStatus(
    r("POST", `/api/organizations/${org.id}/staffmembers`, {
      token: admin,
      body: { name: "Tracer", locationIds: [location.id], accessRoleName: "Employee" },
    }),
    201,
    "staff member",
  );
  const token = await accessToken(r, { organizationId: org.id, employeeId: staff.id });
  return {
    org,
    admin,
    roleId: org.defaults.roles[0].id,
    tracer: { token, path: `/api/organizations/${org.id}/staffmembers/${staff.id}/locations/${location.id}` },
  };
}

/** A traced clock-in (and the clock-out after it): its round trips with its event, against the baseline's without. */
async function clockInCost(ours, world, print) {
  const { tracer, roleId } = world;
  const clockIn = await traced(ours, "POST", `${tracer.path}/clock-in`, { token: tracer.token, body: { roleId, ...POSITION } });
  if (clockIn.status !== 200) throw new Error(`traced clock-in: ${clockIn.status} ${clockIn.text.slice(0, 300)}`);
  await expectStatus(ours.request("POST", `${tracer.path}/clock-out`, { token: tracer.token, body: POSITION }), 200, "clock-out");
  print("A clock-in's D1 round trips (traced):");
  clockIn.roundTrips.forEach((trip, i) => print(`  ${i + 1}. ${describeRoundTrip(trip)}`));
  // What the baseline sends for it: our statements, the outbox's aside (bench/baseline/recording.js).
  print(describeEventCost("Events per clock-in", eventCost(clockIn, recordedTrips(clockIn))));
}

/** Waits until the receiver holds `count` distinct events (or the timeout), printing progress every 10 s. */
async function untilReceived(receiver, count, started, print) {
  let nextReport = 10_000;
  while (receiver.state.received < count) {
    const elapsed = performance.now() - started;
    if (elapsed > DELIVERY_TIMEOUT_MS) return false;
    if (elapsed > nextReport) {
      print(`  ${Math.round(elapsed / 1000)} s: ${receiver.state.received.toLocaleString("en-US")} events received`);
      nextReport += 10_000;
    }
    await sleep(50);
  }
  return true;
}

const sqlOf = async (ours, sql, params) =>
  (await expectStatus(ours.request("POST", "/__bench/sql", { body: { sql, params } }), 200, "bench sql")).results;

export async function run({ stateDir, print }) {
  print("Starting our Worker (wrangler dev --test-scheduled, bench/counting-entry.ts) and seeding it through the API…");
  const ours = await startOurs(stateDir, "ours", { testScheduled: true });
  const world = await seed(ours);
  const { org, admin } = world;
  await clockInCost(ours, world, print);

  const port = await freePort(RECEIVER_PORT);
  if (port > 8789) throw new Error(`no free receiver port in 8781–8789`);
  const hook = await expectStatus(
    ours.request("POST", `/api/organizations/${org.id}/webhooks`, {
      token: admin,
      body: { url: `http://127.0.0.1:${port}/hook`, description: "bench" },
    }),
    201,
    "webhook",
  );
  const receiver = await startReceiver(port, hook.secret);
  try {
    const [template] = await expectStatus(
      ours.request("GET", `/api/organizations/${org.id}/events?types=shift.clocked_in&limit=1`, { token: admin }),
      200,
      "events feed",
    );
    const seeding = performance.now();
    const seeded = await expectStatus(
      ours.request("POST", "/__bench/seed-events", {
        body: { organizationId: org.id, count: EVENTS, type: "shift.clocked_in", data: JSON.stringify(template.data) },
      }),
      200,
      "seed events",
    );
    print(
      `Seeded ${EVENTS.toLocaleString("en-US")} shift.clocked_in events (sequences ${seeded.first}–${seeded.last}, each the traced clock-in's ` +
        `${JSON.stringify(template.data).length}-byte data) in ${((performance.now() - seeding) / 1000).toFixed(1)} s (one INSERT … SELECT).`,
    );

    print(`Draining: GET /__scheduled (the Cron handler wakes the endpoint through the queue), receiver on ${receiver.url}…`);
    const started = performance.now();
    await expectStatus(ours.request("GET", "/__scheduled"), 200, "scheduled");
    const complete = await untilReceived(receiver, EVENTS, started, print);
    const ourState = receiver.state;
    const oursSeconds = ((ourState.lastAt ?? performance.now()) - started) / 1000;
    await sleep(1000);
    const [{ attempts, succeeded }] = await sqlOf(
      ours,
      "SELECT count(*) AS attempts, sum(status = 'succeeded') AS succeeded FROM webhook_deliveries WHERE webhook_id = ?",
      [hook.id],
    );
    const [cursor] = await sqlOf(ours, "SELECT delivered_sequence AS delivered, delivery_lease AS lease FROM webhooks WHERE id = ?", [
      hook.id,
    ]);
    if (!complete) print(`  gave up after ${DELIVERY_TIMEOUT_MS / 1000} s: ${ourState.received} of ${EVENTS} received`);

    const payloads = [...ourState.payloads].sort((a, b) => a.sequence - b.sequence);
    // The endpoint also gets what was recorded after its creation and before the seeding (its own webhook.created).
    const seededReceived = new Set(payloads.filter((p) => p.sequence >= seeded.first && p.sequence <= seeded.last).map((p) => p.sequence))
      .size;
    receiver.reset();
    const baselineSeconds = await sendDirectly(receiver.url, hook.secret, payloads);
    const baseState = receiver.state;

    print("");
    const row = (label, seconds, state, attemptsMade) => [
      label,
      state.received.toLocaleString("en-US"),
      seconds.toFixed(1),
      (state.received / seconds).toFixed(0),
      String(attemptsMade),
      String(state.duplicates),
      String(state.outOfOrder),
      String(state.signatureFailures),
    ];
    print(
      table(
        ["delivery", "events", "seconds", "events/s", "attempts", "duplicates", "out of order", "signature failures"],
        [
          row("ours (cron → drain → queue → consumer)", oursSeconds, ourState, attempts),
          row("baseline (node, sequential signed POSTs)", baselineSeconds, baseState, baseState.requests),
        ],
      ),
    );
    print(
      `ours/baseline: ${ratio(oursSeconds, baselineSeconds)} the time, ${ratio(ourState.received / oursSeconds, baseState.received / baselineSeconds)} the events/s. ` +
        `Attempts recorded: ${attempts} (${succeeded} succeeded); the endpoint's cursor: ${cursor.delivered} (last seeded ${seeded.last}), lease ${cursor.lease ?? "released"}.`,
    );
    print(
      `Out of order: ${ourState.outOfOrder} (must be 0), signature failures: ${ourState.signatureFailures} (must be 0), ` +
        `all ${EVENTS.toLocaleString("en-US")} delivered: ${seededReceived === EVENTS ? "yes" : "NO"}` +
        ` (and ${ourState.received - seededReceived} event(s) recorded before the seeding, from the endpoint's creation on).`,
    );
  } finally {
    await receiver.close();
  }
}
