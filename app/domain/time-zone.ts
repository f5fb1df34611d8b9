import { isValidTimeZone } from "./schedule-time";

/** Longer names are no IANA zone; they are dropped before they reach Intl (its cache is keyed by name). */
export const MAX_TIME_ZONE_LENGTH = 64;

/** The fallback zone wherever none (or an unknown one) is given. */
const DEFAULT_TIME_ZONE = "UTC";

/** A submitted zone, trimmed; "" when it is too long to be one, so the caller's fallback applies. */
export function trimTimeZone(value: string): string {
  const tz = value.trim();
  return tz.length <= MAX_TIME_ZONE_LENGTH ? tz : "";
}

/** The zone when Intl knows it, otherwise `fallback` (UTC): for cookies, forms and stored rows alike. */
export function safeTimeZone(tz: string | null | undefined, fallback = DEFAULT_TIME_ZONE): string {
  return tz && tz.length <= MAX_TIME_ZONE_LENGTH && isValidTimeZone(tz) ? tz : fallback;
}
