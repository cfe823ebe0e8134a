import { z } from "@hono/zod-openapi";
import { type NotFoundResource, notFoundCode, PROBLEM_CODE_NAMES, PROBLEM_LABELS, type ProblemCode, type ProblemStatus } from "./codes";

export type { ProblemCode, ProblemStatus } from "./codes";

const titles: Record<number, string> = { ...PROBLEM_LABELS, 500: "Internal Server Error", 503: "Service Unavailable" };

export interface FieldError {
  path: string;
  message: string;
}

export interface ProblemBody {
  type: string;
  title: string;
  status: ProblemStatus;
  detail: string;
  code: ProblemCode;
  errors?: FieldError[];
  [extension: string]: unknown;
}

/** Thrown anywhere in a request; the app's onError renders it as application/problem+json. */
export class ProblemError extends Error {
  constructor(
    readonly status: ProblemStatus,
    readonly code: ProblemCode,
    readonly detail: string,
    readonly extensions: Record<string, unknown> = {},
    /** Response headers the problem comes with (e.g. Retry-After). */
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }

  toBody(): ProblemBody {
    return {
      type: `https://shiftline.dev/problems/${this.code.toLowerCase().replaceAll("_", "-")}`,
      title: titles[this.status] ?? "Error",
      status: this.status,
      detail: this.detail,
      code: this.code,
      ...this.extensions,
    };
  }
}

export const problemResponse = (problem: ProblemError, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(problem.toBody()), {
    status: problem.status,
    headers: { "Content-Type": "application/problem+json", ...problem.headers, ...headers },
  });

export const badRequest = (code: ProblemCode, detail: string, errors?: FieldError[]) =>
  new ProblemError(400, code, detail, errors ? { errors } : {});

/**
 * The one 400 of invalid input: every field error in `errors`, and a detail that sums them up (`path: message; …`),
 * after `prefix` (e.g. "Invalid json: ") when given.
 */
export const validationFailed = (errors: FieldError[], prefix = "") =>
  badRequest("VALIDATION_FAILED", prefix + errors.map((e) => `${e.path}: ${e.message}`).join("; "), errors);

/** A 400 naming one invalid field, for rules zod cannot see (unknown references, cross-field checks). */
export const invalidField = (path: string, message: string) => validationFailed([{ path, message }]);

export const notFound = (resource: NotFoundResource) =>
  new ProblemError(404, notFoundCode(resource), `No ${resource.toLowerCase()} with that id.`);

export const conflict = (code: ProblemCode, detail: string, extensions?: Record<string, unknown>) =>
  new ProblemError(409, code, detail, extensions);

export const preconditionFailed = () =>
  new ProblemError(
    412,
    "PRECONDITION_FAILED",
    "The record changed since the version If-Match names; nothing was written. Read it again (its ETag) and retry.",
  );

export const unauthorized = (code: ProblemCode, detail: string) => new ProblemError(401, code, detail);

export const forbidden = (detail: string) => new ProblemError(403, "FORBIDDEN", detail);

export const ProblemSchema = z
  .object({
    type: z.string().openapi({ example: "https://shiftline.dev/problems/validation-failed" }),
    title: z.string().openapi({ example: "Bad Request" }),
    status: z.number().int().openapi({ example: 400 }),
    detail: z.string().openapi({ example: "zipCode: Expected number, received string" }),
    code: z.enum(PROBLEM_CODE_NAMES).openapi({
      example: "VALIDATION_FAILED",
      description: "Stable machine code; each operation's error responses list the codes that status can carry there.",
    }),
    errors: z.array(z.object({ path: z.string(), message: z.string() }).openapi("FieldError")).optional(),
    requiredScope: z
      .string()
      .optional()
      .openapi({ description: "`INSUFFICIENT_SCOPE`: the scope the operation needs.", example: "pay:read" }),
  })
  .openapi("Problem", { description: "RFC 9457 problem details" });
