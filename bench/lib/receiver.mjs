// A webhook receiver on 127.0.0.1: verifies every request's Standard Webhooks signature with the `standardwebhooks`
// package (as an integrator would), and records what arrived: duplicates (a webhook-id seen before), order (an event
// whose sequence is below one already received) and signature failures.
import { createServer } from "node:http";
import { Webhook } from "standardwebhooks";

const HOST = "127.0.0.1";

const fresh = () => ({
  requests: 0,
  received: 0,
  duplicates: 0,
  outOfOrder: 0,
  signatureFailures: 0,
  highest: 0,
  firstAt: null,
  lastAt: null,
  /** Raw bodies of first arrivals, in arrival order (the baseline replays them). */
  payloads: [],
  seen: new Set(),
});

export async function startReceiver(port, secret) {
  const verifier = new Webhook(secret);
  let state = fresh();
  const server = createServer((request, response) => {
    const chunks = [];
    request.on("data", (chunk) => chunks.push(chunk));
    request.on("end", () => {
      const payload = Buffer.concat(chunks).toString("utf8");
      const now = performance.now();
      state.requests++;
      state.firstAt ??= now;
      let event;
      try {
        event = verifier.verify(payload, request.headers);
      } catch {
        state.signatureFailures++;
        response.writeHead(400).end();
        return;
      }
      const id = request.headers["webhook-id"];
      if (state.seen.has(id)) state.duplicates++;
      else {
        state.seen.add(id);
        state.received++;
        state.payloads.push({ id, sequence: event.sequence, payload });
        if (event.sequence < state.highest) state.outOfOrder++;
        state.highest = Math.max(state.highest, event.sequence);
        state.lastAt = now;
      }
      response.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, HOST, resolve);
  });
  return {
    url: `http://${HOST}:${port}/hook`,
    get state() {
      return state;
    },
    reset() {
      state = fresh();
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The baseline: the same payloads signed with `standardwebhooks` and POSTed straight from node, one after another. */
export async function sendDirectly(url, secret, payloads) {
  const signer = new Webhook(secret);
  const started = performance.now();
  for (const { id, payload } of payloads) {
    const now = new Date();
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "webhook-id": id,
        "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
        "webhook-signature": signer.sign(id, now, payload),
      },
      body: payload,
    });
    await response.arrayBuffer();
  }
  return (performance.now() - started) / 1000;
}
