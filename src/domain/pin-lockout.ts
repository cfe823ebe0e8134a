/** Five wrong PINs for one staff member at one location within 15 minutes lock that member's PIN on that location's devices. */
export const PIN_MAX_FAILURES = 5;
export const PIN_WINDOW_MS = 15 * 60 * 1000;

/** A PIN: 4 to 8 decimal digits. */
export const PIN_PATTERN = /^[0-9]{4,8}$/;

export type PinLock = { locked: false } | { locked: true; retryAfterSeconds: number };

/**
 * Whether the counted failures (those inside the window before `now`) lock the PIN, and for how long: until the
 * oldest of them leaves the window, which takes the count under the limit again. At least one second.
 */
export function pinLock(failures: readonly Date[], now: Date): PinLock {
  const since = now.getTime() - PIN_WINDOW_MS;
  const counted = failures
    .map((f) => f.getTime())
    .filter((t) => t > since)
    .sort((a, b) => a - b);
  if (counted.length < PIN_MAX_FAILURES) return { locked: false };
  // The failure whose leaving brings the count under the limit (the oldest, as at most five are ever recorded).
  const leaving = counted[counted.length - PIN_MAX_FAILURES]!;
  return { locked: true, retryAfterSeconds: Math.max(1, Math.ceil((leaving + PIN_WINDOW_MS - now.getTime()) / 1000)) };
}

/** The instant after which a failure still counts at `now`. */
export const windowStart = (now: Date) => new Date(now.getTime() - PIN_WINDOW_MS);
