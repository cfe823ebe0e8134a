import { payrollSettings, staffMembers } from "@db/schema";
import { and, eq, inArray } from "drizzle-orm";
import { chunk } from "@/data/chunk";
import type { Database } from "@/data/client";
import { organizationNow } from "@/data/clock";
import { guardedBatch, type Writer } from "@/data/write/guarded-batch";
import { DEFAULT_EARNING_CODES, type PayrollIds, type PayrollProvider } from "@/domain/payroll-providers";
import { iso } from "@/platform/schemas/time";

export interface PayrollSettingsRead {
  provider: PayrollProvider | null;
  companyCode: string | null;
  batchId: string | null;
  earningCodes: Record<string, string>;
  updatedAt: Date | null;
}

export const payrollSettingsWire = (settings: PayrollSettingsRead) => ({
  provider: settings.provider,
  companyCode: settings.companyCode,
  batchId: settings.batchId,
  earningCodes: settings.earningCodes,
  defaultEarningCodes: settings.provider ? DEFAULT_EARNING_CODES[settings.provider] : {},
  updatedAt: settings.updatedAt === null ? null : iso(settings.updatedAt),
});

/** The organization's payroll settings; none stored: no provider, no codes. */
export async function readPayrollSettings(db: Database, organizationId: string): Promise<PayrollSettingsRead> {
  const [row] = await db.select().from(payrollSettings).where(eq(payrollSettings.organizationId, organizationId));
  if (!row) return { provider: null, companyCode: null, batchId: null, earningCodes: {}, updatedAt: null };
  return {
    provider: row.provider as PayrollProvider | null,
    companyCode: row.companyCode,
    batchId: row.batchId,
    earningCodes: row.earningCodes,
    updatedAt: row.updatedAt,
  };
}

/** PUT …/payroll-settings: the whole settings replaced (earning codes left out: the provider's defaults), with its event. */
export async function putPayrollSettings(
  writer: Writer,
  organizationId: string,
  body: { provider: PayrollProvider | null; companyCode?: string | null; batchId?: string | null; earningCodes?: Record<string, string> },
) {
  const now = await organizationNow({ ...writer, organizationId });
  const settings: PayrollSettingsRead = {
    provider: body.provider,
    companyCode: body.companyCode ?? null,
    batchId: body.batchId ?? null,
    earningCodes: body.earningCodes ?? (body.provider ? { ...DEFAULT_EARNING_CODES[body.provider] } : {}),
    updatedAt: now,
  };
  const { updatedAt: _, ...columns } = settings;
  await guardedBatch(
    writer,
    [
      writer.db
        .insert(payrollSettings)
        .values({ organizationId, ...columns, updatedAt: now })
        .onConflictDoUpdate({ target: payrollSettings.organizationId, set: { ...columns, updatedAt: now } }),
    ],
    [],
    { events: [{ type: "payroll_settings.updated", organizationId, occurredAt: now, data: payrollSettingsWire(settings) }] },
  );
  return payrollSettingsWire(settings);
}

/** 100 bound parameters a statement: the organization and up to 90 ids. */
const IDS_PER_STATEMENT = 90;

/** The payroll ids of staff members (every one asked, {} for one without). */
export async function readPayrollIds(db: Database, organizationId: string, employeeIds: readonly string[]) {
  const ids = new Map<string, PayrollIds>();
  const pages = chunk([...employeeIds], IDS_PER_STATEMENT);
  if (pages.length === 0) return ids;
  const statements = pages.map((page) =>
    db
      .select({ id: staffMembers.id, payrollIds: staffMembers.payrollIds })
      .from(staffMembers)
      .where(and(eq(staffMembers.organizationId, organizationId), inArray(staffMembers.id, page))),
  );
  const results = await db.batch(statements as [(typeof statements)[0], ...typeof statements]);
  for (const rows of results) for (const row of rows) ids.set(row.id, row.payrollIds);
  return ids;
}
