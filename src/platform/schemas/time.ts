export const iso = (date: Date) => date.toISOString();

export const isoOrNull = (date: Date | null) => (date ? date.toISOString() : null);

export function isValidTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
