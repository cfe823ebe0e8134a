import { type FuzzRequest, type Send, sendToWorker } from "./fuzz-harness";
import { exampleValue, fillPath, type OpenApiDocument, type WalkedOperation } from "./openapi-walk";
import { fixturePathValues, type RecordFixture } from "./record-fixture";

/** The operation called on the fixture organization's records, with a plausible body and required query. */
export function recordRequest(document: OpenApiDocument, op: WalkedOperation, fixture: RecordFixture): FuzzRequest {
  return {
    mode: "real ids",
    method: op.method,
    path: fillPath(op.path, fixturePathValues(fixture, op.path, op.pathParams)),
    query: op.queryParams.filter((p) => p.required).map((p) => [p.name, String(exampleValue(document, p.schema))]),
    ...(op.body ? { body: { text: JSON.stringify(exampleValue(document, op.body)), contentType: "application/json" } } : {}),
  };
}

/** What is wrong with the answer to the call, or null when it is the expected status (a problem for 4xx). */
export async function refusal(
  document: OpenApiDocument,
  op: WalkedOperation,
  fixture: RecordFixture,
  token: string,
  expected: number,
  send: Send = sendToWorker,
  hidden?: string,
): Promise<string | null> {
  const response = await send(recordRequest(document, op, fixture), token);
  if (response.status !== expected) return `${op.name} answered ${response.status}, expected ${expected}: ${response.text.slice(0, 200)}`;
  if (hidden !== undefined && response.text.includes(hidden)) return `${op.name} showed ${hidden} to a caller who may not see it`;
  if (response.status >= 400 && !response.contentType.startsWith("application/problem+json")) {
    return `${op.name} answered ${response.status} as '${response.contentType}', not a problem document`;
  }
  return null;
}
