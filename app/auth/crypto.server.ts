import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from "@oslojs/encoding";

/** A random secret token: 25 bytes (200 bits), base32. */
export function generateToken(): string {
  const bytes = new Uint8Array(25);
  crypto.getRandomValues(bytes);
  return encodeBase32LowerCaseNoPadding(bytes);
}

const encoder = new TextEncoder();

/**
 * hex(SHA-256(value)): how tokens are stored, so a leaked table grants nothing. WebCrypto's digest
 * runs natively; the JavaScript SHA-256 it replaced cost every signed-in request a measurable share
 * of its Worker CPU.
 */
export async function hashToken(value: string): Promise<string> {
  return encodeHexLowerCase(new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(value))));
}

/** A random id for new users: 16 bytes, base32. */
export function generateId(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return encodeBase32LowerCaseNoPadding(bytes);
}
