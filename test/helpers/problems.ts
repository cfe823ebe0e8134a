import { expect } from "vitest";

interface Answer {
  status: number;
  body: any;
}

/**
 * A refusal of bad input: 400, its problem `code` (VALIDATION_FAILED unless given), and `errors` naming exactly
 * `paths` (in any order). A bare status check passes for the wrong reason as easily as for the right one.
 */
export function expectInvalid(res: Answer, paths: readonly string[], code = "VALIDATION_FAILED") {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.code).toBe(code);
  expect((res.body.errors ?? []).map((e: { path: string }) => e.path).sort()).toEqual([...paths].sort());
}
