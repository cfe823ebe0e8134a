import { Webhook } from "standardwebhooks";
import type { webhooks } from "./api-types";

/** Every event a webhook endpoint receives, by `type` (the document's `webhooks`). */
export type WebhookEvent = {
  [T in keyof webhooks]: webhooks[T]["post"] extends { requestBody: { content: { "application/json": infer E } } } ? E : never;
}[keyof webhooks];

export { WebhookVerificationError } from "standardwebhooks";

/**
 * A delivery's event, once its Standard Webhooks signature checks out: `secret` is the endpoint's `whsec_…` (answered
 * once by POST …/webhooks), `body` the raw request body as received (not re-serialized JSON), `headers` the request's
 * (`webhook-id`, `webhook-timestamp`, `webhook-signature`). A bad signature, or a timestamp more than 5 minutes
 * from now, throws WebhookVerificationError. De-duplicate on `webhook-id` (the event's `id`): a delivery may repeat.
 */
export function verifyWebhook(secret: string, body: string, headers: Headers | Record<string, string>): WebhookEvent {
  const plain = headers instanceof Headers ? Object.fromEntries(headers) : headers;
  return new Webhook(secret).verify(body, plain) as WebhookEvent;
}
