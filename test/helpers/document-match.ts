import { operations, validators } from "@generated/response-validators";

/** A response as the harness received it. */
export interface ReceivedResponse {
  status: number;
  contentType: string;
  text: string;
}

const mediaType = (contentType: string) => contentType.split(";")[0]!.trim().toLowerCase();

/**
 * What in a response the served document does not declare, or null: its status among the operation's responses,
 * its media type, its body against that response's JSON Schema (Ajv 2020-12, precompiled in node by
 * test/setup/response-validators.ts) and a problem's `code` among the codes declared for the status.
 */
export function documentMismatch(operation: string, response: ReceivedResponse): string | null {
  const declared = operations[operation];
  if (!declared) return `${operation} is no operation of the document`;
  const { status, contentType, text } = response;
  const answer = `${operation} answered ${status}`;
  const expected = declared[String(status)] ?? declared[`${String(status)[0]}XX`] ?? declared.default;
  if (!expected) return `${answer}, not among its declared responses (${Object.keys(declared).join(", ")})`;
  const types = Object.keys(expected.media);
  if (types.length === 0) return text === "" ? null : `${answer} with a body, where the document declares none: ${text.slice(0, 200)}`;
  const type = mediaType(contentType);
  if (!types.includes(type)) return `${answer} as '${contentType}', not as declared (${types.join(", ")})`;
  const validatorName = expected.media[type];
  if (!validatorName) return null;
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    return `${answer} with a body that is not JSON: ${text.slice(0, 200)}`;
  }
  const validate = validators[validatorName]!;
  if (!validate(body)) {
    const errors = (validate.errors ?? []).map(
      (e) => `${e.instancePath || "/"} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ""}`,
    );
    return `${answer} with a body its schema refuses: ${errors.join("; ")}: ${text.slice(0, 300)}`;
  }
  if (expected.codes && !expected.codes.includes(body.code)) {
    return `${answer} with code ${String(body.code)}, not among the codes declared for ${status} (${expected.codes.join(", ")})`;
  }
  return null;
}

/** Fails with what the document does not declare about the response. */
export function expectMatchesDocument(operation: string, response: ReceivedResponse) {
  const mismatch = documentMismatch(operation, response);
  if (mismatch) throw new Error(mismatch);
}
