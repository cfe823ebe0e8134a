/**
 * Minor units of a currency (its decimals), from ISO 4217's list one (SIX Financial Information, "Current currency &
 * funds code list", column "Minor unit"): the currencies whose minor unit is not 2. A table, not Intl.NumberFormat,
 * so the figure is the standard's and not the runtime's locale data. An unknown or absent code is 2.
 */
const NOT_TWO: Readonly<Record<string, number>> = {
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
  CLF: 4,
  UYW: 4,
};

export const DEFAULT_MINOR_UNITS = 2;

/** ISO 4217 minor units of `currencyCode` (JPY 0, USD 2, BHD 3); 2 when unknown or absent. */
export const minorUnitsOf = (currencyCode: string | null | undefined): number =>
  currencyCode ? (NOT_TWO[currencyCode.toUpperCase()] ?? DEFAULT_MINOR_UNITS) : DEFAULT_MINOR_UNITS;
