/** An RFC 9457 problem document, as every error of the API is (`application/problem+json`). */
export interface Problem {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  code?: string;
  errors?: { path: string; message: string }[];
}

const isProblem = (value: unknown): value is Problem => value !== null && typeof value === "object" && !Array.isArray(value);

/** A call that answered an error: its status and the API's problem document (a typed call's `error`). */
export class ShiftlineError extends Error {
  override readonly name = "ShiftlineError";
  readonly problem: Problem;
  constructor(
    readonly status: number,
    problem: unknown,
  ) {
    const known = isProblem(problem) ? problem : { status, detail: String(problem) };
    super(`${status} ${known.code ?? known.title ?? "error"}${known.detail ? `: ${known.detail}` : ""}`);
    this.problem = known;
  }
}

/** The problem of an error answer (a body that is not one still gives its status). */
export async function problemOf(response: Response): Promise<Problem> {
  const text = await response.text();
  try {
    const parsed: unknown = JSON.parse(text);
    if (isProblem(parsed)) return parsed;
  } catch {
    // Not JSON (a proxy's page): kept as the detail.
  }
  return { status: response.status, detail: text };
}
