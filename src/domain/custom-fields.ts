import type { RE2JS } from "re2js";

/**
 * Custom fields on shifts: what a field accepts, and what a shift's values must be. A TEXT field's value matches its
 * pattern (when set) as a whole; a LIST field's value is one of its options. Values are 1 to MAX_VALUE_LENGTH
 * characters, which with the pattern's size bounds the work of a match.
 */
export const MAX_PATTERN_LENGTH = 200;
export const MAX_VALUE_LENGTH = 500;
export const MAX_OPTIONS = 100;

export type CustomFieldType = "TEXT" | "LIST";

export interface CustomFieldRule {
  id: string;
  type: CustomFieldType;
  options: readonly string[] | null;
  pattern: string | null;
  required: boolean;
  active: boolean;
}

export interface CustomFieldError {
  path: string;
  message: string;
}

/** The values a request gives: a value sets the field, null removes it. */
export type GivenValues = Readonly<Record<string, string | null>>;
export type StoredValues = Readonly<Record<string, string>>;

/**
 * The most instructions a compiled pattern may hold. RE2 matches in time linear in the value, times the program's
 * size: a repeat count copies what it repeats (`.{0,500}` is about 1,000 instructions), so this bounds the work of
 * one value (500 characters) to tens of milliseconds at most.
 */
export const MAX_PATTERN_PROGRAM_SIZE = 1200;

type Compiled = { ok: true; engine: RE2JS } | { ok: false; refusal: string };

let re2: typeof import("re2js") | undefined;

/**
 * re2js, loaded the first time a pattern is compiled: its ≈ 150 KiB of script would otherwise be evaluated by the
 * first request of every feature that reads custom fields (a punch), though few requests check a pattern. Kept once
 * loaded, so only its first users import it (src/worker.ts, `loadedOnce`, says why that matters under vitest).
 */
export async function loadPatternEngine(): Promise<typeof import("re2js")> {
  re2 ??= await import("re2js");
  return re2;
}

/**
 * Patterns are RE2 syntax, compiled by re2js (RE2's linear-time engine: no backtracking, so no value can make a
 * match run long). RE2 has no lookarounds and no back-references: such a pattern does not compile.
 */
async function compiled(pattern: string): Promise<Compiled> {
  if (pattern.length > MAX_PATTERN_LENGTH) return { ok: false, refusal: `must be at most ${MAX_PATTERN_LENGTH} characters` };
  const { RE2JS, RE2JSException } = await loadPatternEngine();
  let engine: RE2JS;
  try {
    engine = RE2JS.compile(pattern);
  } catch (error) {
    const reason = error instanceof RE2JSException ? error.message : String(error);
    return {
      ok: false,
      refusal: `is not an RE2 regular expression (${reason}); RE2 matches in linear time and has no lookarounds or back-references`,
    };
  }
  const size = engine.programSize();
  if (size > MAX_PATTERN_PROGRAM_SIZE)
    return {
      ok: false,
      refusal: `is too large: it compiles to ${size} instructions, at most ${MAX_PATTERN_PROGRAM_SIZE} (lower its repeat counts)`,
    };
  return { ok: true, engine };
}

/** Why a pattern is refused, or null when it is accepted. */
export async function patternRefusal(pattern: string): Promise<string | null> {
  const result = await compiled(pattern);
  return result.ok ? null : result.refusal;
}

/** Why a field's options are refused, or null: 1 to MAX_OPTIONS distinct non-empty strings. */
export function optionsRefusal(options: readonly string[]): string | null {
  if (options.length < 1 || options.length > MAX_OPTIONS) return `must hold 1 to ${MAX_OPTIONS} options`;
  if (options.some((o) => o.length === 0 || o.length > MAX_VALUE_LENGTH)) return `each option must be 1 to ${MAX_VALUE_LENGTH} characters`;
  if (new Set(options).size !== options.length) return "options must be distinct";
  return null;
}

/** Why a value does not fit the field, or null when it does. */
export async function valueRefusal(field: CustomFieldRule, value: string): Promise<string | null> {
  if (value.length === 0 || value.length > MAX_VALUE_LENGTH) return `must be 1 to ${MAX_VALUE_LENGTH} characters`;
  if (field.type === "LIST") return field.options?.includes(value) ? null : "must be one of the field's options";
  if (field.pattern === null) return null;
  const pattern = await compiled(field.pattern);
  // A pattern stored before patterns were RE2 (an ECMAScript lookahead, a `\\u` escape…) refuses values until replaced.
  if (!pattern.ok) return "cannot be checked: the field's pattern is no longer accepted (RE2 syntax); an admin must replace it";
  return pattern.engine.matches(value) ? null : "does not match the field's pattern";
}

const pathOf = (id: string) => `customFields.${id}`;

/**
 * The errors of the values a write gives, against the organization's live fields: each set value must name an active
 * field and fit it. Null (a removal) is accepted for any id.
 */
export async function givenValueErrors(fields: readonly CustomFieldRule[], given: GivenValues): Promise<CustomFieldError[]> {
  const byId = new Map(fields.map((f) => [f.id, f]));
  const errors: CustomFieldError[] = [];
  for (const [id, value] of Object.entries(given)) {
    if (value === null) continue;
    const field = byId.get(id);
    const message = !field
      ? "no custom field with that id in this organization"
      : !field.active
        ? "the custom field is not active"
        : await valueRefusal(field, value);
    if (message) errors.push({ path: pathOf(id), message });
  }
  return errors;
}

/** The shift's values after a write: the given ones set over the stored ones, the null ones removed. */
export function mergedValues(stored: StoredValues, given: GivenValues = {}): Record<string, string> {
  const merged: Record<string, string> = { ...stored };
  for (const [id, value] of Object.entries(given)) {
    if (value === null) delete merged[id];
    else merged[id] = value;
  }
  return merged;
}

/** The active required fields the values leave empty, named as errors (in the fields' order). */
export const missingRequired = (fields: readonly CustomFieldRule[], values: StoredValues): CustomFieldError[] =>
  fields.filter((f) => f.active && f.required && values[f.id] === undefined).map((f) => ({ path: pathOf(f.id), message: "required" }));

/** The export's columns: the active fields, by name then id. */
export const exportedFields = <F extends { id: string; name: string; active: boolean }>(fields: readonly F[]): F[] =>
  fields.filter((f) => f.active).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
