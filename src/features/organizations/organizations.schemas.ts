import type { organizations } from "@db/schema";
import { z } from "@hono/zod-openapi";
import { DATA_REGIONS } from "@/data/shards";
import { iso, isoOrNull } from "@/platform/schemas/time";
import { CountryCode, CurrencyCode, ExternalId, Name, orNull, recordLifecycle, TimeZone } from "@/platform/schemas/validation";

export const Organization = z
  .object({
    id: z.string().openapi({ example: "0193a5a0-7c1e-7b2a-9d4e-1f2a3b4c5d6e" }),
    name: z.string().openapi({ example: "Blue Bottle Bakery" }),
    externalId: z.string().nullable().openapi({ example: "acme-42" }),
    timezone: z.string().openapi({ example: "America/New_York" }),
    country: z.string().nullable().openapi({ example: "US" }),
    currencyCode: z.string().nullable().openapi({ example: "USD" }),
    sandbox: z.boolean().openapi({
      description: "A partner's test organization (POST /organizations/sandbox), with a test clock; set at creation, never changed.",
    }),
    dataRegion: z.enum(DATA_REGIONS).openapi({
      description:
        "Where the organization's data lives: `EU` keeps its rows in a D1 database and its files in an R2 bucket created " +
        "with the EU jurisdiction. Set at creation; read-only afterwards (PATCH refuses it, 400 `VALIDATION_FAILED`): " +
        "only an operator's shard move to another region's shard changes it.",
      example: "DEFAULT",
    }),
    ...recordLifecycle,
  })
  .openapi("Organization");

export const OrganizationCreate = z
  .object({
    name: Name.openapi({ example: "Blue Bottle Bakery" }),
    externalId: ExternalId.optional(),
    timezone: TimeZone.default("UTC"),
    country: CountryCode.optional(),
    currencyCode: CurrencyCode.optional(),
    dataRegion: z
      .enum(DATA_REGIONS)
      .default("DEFAULT")
      .openapi({
        description:
          "`EU`: the organization is placed on a shard of the EU data region (its D1 database and R2 bucket created with " +
          "the EU jurisdiction), and its rows and files stay there. Read-only afterwards.",
      }),
  })
  .openapi("OrganizationCreate");

export const OrganizationPatch = z
  .object({
    name: Name,
    externalId: ExternalId.nullable(),
    timezone: TimeZone,
    country: CountryCode.nullable(),
    currencyCode: CurrencyCode.nullable(),
    sandbox: z.boolean().openapi({
      description: "Never changes: its current value is accepted, the other is 409 `SANDBOX_PERMANENT` (a sandbox never goes live).",
    }),
  })
  .partial()
  .openapi("OrganizationPatch");

const NamedDefault = z.object({ id: z.string(), name: z.string() });

export const OrganizationWithDefaults = Organization.extend({
  defaults: z.object({
    accessRoles: z.array(NamedDefault.extend({ permissions: z.array(z.string()) })),
    roles: z.array(NamedDefault),
    policyTypes: z.array(NamedDefault.extend({ type: z.string() })),
  }),
}).openapi("OrganizationWithDefaults");

export const SandboxCreate = z
  .object({
    ...OrganizationCreate.shape,
    seed: z.boolean().default(false).openapi({
      description: "Seed it: a location, three staff members and their published week of shifts (09:00–17:00 local, from tomorrow).",
    }),
  })
  .openapi("SandboxCreate");

export const SandboxSeed = z
  .object({ locationId: z.string(), staffMemberIds: z.array(z.string()), scheduleEntryIds: z.array(z.string()) })
  .openapi("SandboxSeed", { description: "What `seed: true` created (`seeded` is null without it)." });

export const SandboxOrganization = z
  .object({
    ...OrganizationWithDefaults.shape,
    seeded: orNull(SandboxSeed),
  })
  .openapi("SandboxOrganization");

export const ExternalIdParams = z.object({
  externalId: ExternalId.openapi({ param: { name: "externalId", in: "path" } }),
});

export type OrganizationRow = typeof organizations.$inferSelect;

export const serializeOrganization = (row: OrganizationRow): z.infer<typeof Organization> => ({
  id: row.id,
  name: row.name,
  externalId: row.externalId,
  timezone: row.timezone,
  country: row.country,
  currencyCode: row.currencyCode,
  sandbox: row.sandbox,
  dataRegion: row.dataRegion,
  active: row.active,
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
  deletedAt: isoOrNull(row.deletedAt),
});
