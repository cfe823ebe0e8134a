import type { customFields } from "@db/schema";
import { z } from "@hono/zod-openapi";
import {
  MAX_OPTIONS,
  MAX_PATTERN_LENGTH,
  MAX_PATTERN_PROGRAM_SIZE,
  MAX_VALUE_LENGTH,
  optionsRefusal,
  patternRefusal,
} from "@/domain/custom-fields";
import { idParam, OrganizationParams } from "@/platform/openapi/helpers";
import { iso, isoOrNull } from "@/platform/schemas/time";
import { Name, recordLifecycle } from "@/platform/schemas/validation";

const FieldType = z
  .enum(["TEXT", "LIST"])
  .openapi({ description: "TEXT: free text (matching `pattern` when set); LIST: one of `options`." });

const Options = z
  .array(z.string().max(MAX_VALUE_LENGTH))
  .superRefine((options, ctx) => {
    const refusal = optionsRefusal(options);
    if (refusal) ctx.addIssue({ code: "custom", message: refusal });
  })
  .openapi({
    description: `LIST only: the values allowed, 1 to ${MAX_OPTIONS} distinct strings of 1 to ${MAX_VALUE_LENGTH} characters.`,
    example: ["Inside", "Outside"],
  });

const Pattern = z
  .string()
  .superRefine(async (pattern, ctx) => {
    const refusal = await patternRefusal(pattern);
    if (refusal) ctx.addIssue({ code: "custom", message: refusal });
  })
  .openapi({
    description:
      `TEXT only: a regular expression in RE2 syntax of at most ${MAX_PATTERN_LENGTH} characters that a value must ` +
      "match as a whole. It is matched by a linear-time engine (RE2): no value can make a match run long. A pattern " +
      "RE2 cannot compile is a 400 naming `pattern`: lookarounds (`(?=`, `(?!`, `(?<=`) and back-references (`\\1`) " +
      "are not RE2, a repeat count is at most 1000, `\\x{…}` writes a code point (not `\\u`); so is one compiling " +
      `to more than ${MAX_PATTERN_PROGRAM_SIZE} instructions (lower its repeat counts). \`.\` and classes match code points; ` +
      "`\\d` and `\\w` are ASCII, `\\p{L}` any letter; `(?i)` ignores case. Null: any text.",
    example: "[A-Z]{2}-\\d{4}",
  });

export const CustomField = z
  .object({
    id: z.string().openapi({ example: "0193a5a0-7c1e-7b2a-9d4e-1f2a3b4c5d6f" }),
    name: z.string().openapi({ example: "Job number" }),
    type: FieldType,
    options: z.array(z.string()).nullable().openapi({ description: "LIST: the values allowed; null for TEXT." }),
    pattern: z.string().nullable().openapi({ description: "TEXT: the pattern a value matches as a whole, or null (any text)." }),
    required: z.boolean().openapi({ description: "A shift cannot be clocked out without a value while the field is active." }),
    ...recordLifecycle,
  })
  .openapi("CustomField");

const typeRules = (body: { type?: string; options?: unknown; pattern?: unknown }, ctx: z.RefinementCtx) => {
  if (body.type === "TEXT" && body.options !== undefined && body.options !== null)
    ctx.addIssue({ code: "custom", path: ["options"], message: "a TEXT field has no options" });
  if (body.type === "LIST" && body.pattern !== undefined && body.pattern !== null)
    ctx.addIssue({ code: "custom", path: ["pattern"], message: "a LIST field has no pattern" });
  if (body.type === "LIST" && (body.options === undefined || body.options === null))
    ctx.addIssue({ code: "custom", path: ["options"], message: "a LIST field needs options" });
};

export const CustomFieldCreate = z
  .object({
    name: Name.openapi({ example: "Job number" }),
    type: FieldType,
    options: Options.nullable().optional(),
    pattern: Pattern.nullable().optional(),
    required: z.boolean().default(false).openapi({ description: "Needed at clock-out while the field is active." }),
    active: z.boolean().default(true).openapi({ description: "An inactive field takes no new values and is not exported." }),
  })
  .superRefine(typeRules)
  .openapi("CustomFieldCreate", { example: { name: "Job number", type: "TEXT", pattern: "[A-Z]{2}-\\d{4}", required: true } });

export const CustomFieldPatch = z
  .object({
    name: Name.openapi({ example: "Job number" }),
    options: Options,
    pattern: Pattern.nullable(),
    required: z.boolean(),
    active: z.boolean(),
  })
  .partial()
  .openapi("CustomFieldPatch");

export const CustomFieldParams = OrganizationParams.extend({ id: idParam("id", "Custom field id") });

export type CustomFieldRow = typeof customFields.$inferSelect;

export const serializeCustomField = (row: CustomFieldRow): z.infer<typeof CustomField> => ({
  id: row.id,
  name: row.name,
  type: row.type,
  options: row.options,
  pattern: row.pattern,
  required: row.required,
  active: row.active,
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
  deletedAt: isoOrNull(row.deletedAt),
});
