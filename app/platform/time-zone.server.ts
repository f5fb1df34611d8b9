import { safeTimeZone } from "~/domain/time-zone";
import { readCookie } from "./cookies.server";

/** The browser's IANA time zone from the `tz` cookie (set by the boot script); UTC when unknown. */
export function requestTimeZone(request: Request): string {
  return safeTimeZone(readCookie(request, "tz"));
}
