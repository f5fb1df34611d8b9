import { readCookie } from "./cookies.server";

/** A message that survives one redirect (a flash cookie read and cleared by the root loader). */
export interface FlashToast {
  id: string;
  kind: "success" | "error";
  message: string;
}

const COOKIE = "dunly_toast";
const MAX_MESSAGE = 300;

/** The Set-Cookie value carrying a toast to the next page (one minute, this site only). */
export function flashToastCookie(toast: Omit<FlashToast, "id">) {
  const value = encodeURIComponent(
    JSON.stringify({ id: crypto.randomUUID(), kind: toast.kind, message: toast.message.slice(0, MAX_MESSAGE) }),
  );
  return `${COOKIE}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=60`;
}

/** The flashed toast of this request, if any, and the header that clears it. Bad cookies are ignored. */
export function readFlashToast(request: Request): { toast: FlashToast | null; headers?: HeadersInit } {
  const raw = readCookie(request, COOKIE);
  if (raw === null) return { toast: null };
  const headers = { "Set-Cookie": `${COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0` };
  try {
    const value: unknown = JSON.parse(raw);
    if (
      typeof value === "object" &&
      value !== null &&
      "id" in value &&
      "kind" in value &&
      "message" in value &&
      typeof value.id === "string" &&
      (value.kind === "success" || value.kind === "error") &&
      typeof value.message === "string"
    ) {
      return {
        toast: { id: value.id.slice(0, 64), kind: value.kind, message: value.message.slice(0, MAX_MESSAGE) },
        headers,
      };
    }
  } catch {
    // A cookie we did not write (or a broken one): drop it.
  }
  return { toast: null, headers };
}
