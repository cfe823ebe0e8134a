import { organizations } from "@db/schema";
import { eq, type Placeholder, type SQL } from "drizzle-orm";
import type { Database } from "@/data/client";
import { minorUnitsOf } from "@/domain/currency-minor-units";
import { type AmountDecimals, amountDecimals } from "@/domain/timesheet-totals";

/** The organization's currency, read in a timesheet read's own batch: its minor units are what amounts round to. */
export const currencySelect = (db: Database, organizationId: string | Placeholder | SQL) =>
  db.select({ currencyCode: organizations.currencyCode }).from(organizations).where(eq(organizations.id, organizationId));

/** The decimals a timesheet amount rounds to, of the currency read (ISO 4217 minor units; 2 without one). */
export const decimalsOfCurrency = (rows: readonly { currencyCode: string | null }[]): AmountDecimals =>
  amountDecimals(minorUnitsOf(rows[0]?.currencyCode));
