/**
 * Custom fields on shifts: what a field accepts, and what a shift's values must be. A TEXT field's value matches its
 * pattern (when set) as a whole; a LIST field's value is one of its options. Values are 1 to MAX_VALUE_LENGTH
 * characters, which also bounds the work any pattern can do on one.
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

/** Patterns are ECMAScript regular expressions (u flag), matched against the whole value. */
const compiled = (pattern: string) => new RegExp(`^(?:${pattern})$`, "u");

/** Length of the `\p{…}`, `\u{…}` tail after an escape letter at `i` (0 when there is none). */
const bracedTail = (pattern: string, i: number) => {
  if (!"pPu".includes(pattern[i]!) || pattern[i + 1] !== "{") return 0;
  const close = pattern.indexOf("}", i + 1);
  return close === -1 ? 0 : close - i;
};

/** The quantifier starting at `i`: its length and whether it repeats more than a fixed number of times. */
function quantifierAt(pattern: string, i: number): { length: number; varies: boolean } | null {
  const ch = pattern[i];
  if (ch === "*" || ch === "+" || ch === "?") return { length: pattern[i + 1] === "?" ? 2 : 1, varies: true };
  if (ch !== "{") return null;
  const match = /^\{(\d+)(,(\d*))?\}\??/.exec(pattern.slice(i));
  if (!match) return null;
  const varies = match[2] !== undefined && match[3] !== match[1];
  return { length: match[0].length, varies };
}

/**
 * Whether the pattern could backtrack catastrophically, by a simple and strict reading: a group repeated by a
 * varying quantifier (`*`, `+`, `?`, `{n,}`, `{n,m}`) that itself holds a varying quantifier or an alternative
 * (`(a+)+`, `(a|ab)*`), or a back-reference. Exact counts (`{3}`) are fine anywhere.
 */
export function mayBacktrackCatastrophically(pattern: string): boolean {
  // Read only after the pattern compiled (patternRefusal): its groups balance and its escapes are whole.
  // Per open group: whether it holds a varying quantifier or an alternative.
  const stack: { risky: boolean }[] = [{ risky: false }];
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === "\\") {
      const next = pattern[i + 1] ?? "";
      if (/[1-9k]/.test(next)) return true;
      i += 1 + bracedTail(pattern, i + 1);
      continue;
    }
    if (inClass) {
      if (ch === "]") inClass = false;
      continue;
    }
    if (ch === "[") {
      inClass = true;
      continue;
    }
    if (ch === "(") {
      stack.push({ risky: false });
      // The `?:`, `?=`, `?!`, `?<=`, `?<!`, `?<name>` after the parenthesis is no quantifier.
      if (pattern[i + 1] === "?") {
        const named = /^\?<[A-Za-z_$][\w$]*>/.exec(pattern.slice(i + 1));
        i += named ? named[0].length : pattern[i + 2] === "<" ? 3 : 2;
      }
      continue;
    }
    if (ch === "|") {
      stack[stack.length - 1]!.risky = true;
      continue;
    }
    if (ch === ")") {
      // The pattern compiled, so its parentheses balance: the root stays below every group.
      const group = stack.pop()!;
      const quantifier = quantifierAt(pattern, i + 1);
      if (quantifier?.varies && group.risky) return true;
      if (group.risky || quantifier?.varies) stack[stack.length - 1]!.risky = true;
      if (quantifier) i += quantifier.length;
      continue;
    }
    const quantifier = quantifierAt(pattern, i);
    if (quantifier) {
      if (quantifier.varies) stack[stack.length - 1]!.risky = true;
      i += quantifier.length - 1;
    }
  }
  return false;
}

/** Why a pattern is refused, or null when it is accepted. */
export function patternRefusal(pattern: string): string | null {
  if (pattern.length > MAX_PATTERN_LENGTH) return `must be at most ${MAX_PATTERN_LENGTH} characters`;
  try {
    compiled(pattern);
  } catch {
    return "is not a valid regular expression (ECMAScript syntax, u flag)";
  }
  if (mayBacktrackCatastrophically(pattern))
    return "could backtrack catastrophically: a repeated group may hold no quantifier or alternative, and no back-reference is allowed";
  return null;
}

/** Why a field's options are refused, or null: 1 to MAX_OPTIONS distinct non-empty strings. */
export function optionsRefusal(options: readonly string[]): string | null {
  if (options.length < 1 || options.length > MAX_OPTIONS) return `must hold 1 to ${MAX_OPTIONS} options`;
  if (options.some((o) => o.length === 0 || o.length > MAX_VALUE_LENGTH)) return `each option must be 1 to ${MAX_VALUE_LENGTH} characters`;
  if (new Set(options).size !== options.length) return "options must be distinct";
  return null;
}

/** Why a value does not fit the field, or null when it does. */
export function valueRefusal(field: CustomFieldRule, value: string): string | null {
  if (value.length === 0 || value.length > MAX_VALUE_LENGTH) return `must be 1 to ${MAX_VALUE_LENGTH} characters`;
  if (field.type === "LIST") return field.options?.includes(value) ? null : "must be one of the field's options";
  if (field.pattern !== null && !compiled(field.pattern).test(value)) return "does not match the field's pattern";
  return null;
}

const pathOf = (id: string) => `customFields.${id}`;

/**
 * The errors of the values a write gives, against the organization's live fields: each set value must name an active
 * field and fit it. Null (a removal) is accepted for any id.
 */
export function givenValueErrors(fields: readonly CustomFieldRule[], given: GivenValues): CustomFieldError[] {
  const byId = new Map(fields.map((f) => [f.id, f]));
  const errors: CustomFieldError[] = [];
  for (const [id, value] of Object.entries(given)) {
    if (value === null) continue;
    const field = byId.get(id);
    const message = !field
      ? "no custom field with that id in this organization"
      : !field.active
        ? "the custom field is not active"
        : valueRefusal(field, value);
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
