/** Written by test/setup/response-validators.ts (the worker projects' global setup) before the tests run. */
declare module "@generated/response-validators" {
  export interface ResponseValidator {
    (body: unknown): boolean;
    errors?: { instancePath: string; message?: string; params?: Record<string, unknown> }[] | null;
  }
  /** By operation (`GET /api/…`) and status: the validator of each media type (null: not JSON) and the problem codes. */
  export const operations: Record<string, Record<string, { media: Record<string, string | null>; codes?: string[] }>>;
  export const validators: Record<string, ResponseValidator>;
}
