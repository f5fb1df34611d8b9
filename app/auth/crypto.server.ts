import { sha256 } from "@oslojs/crypto/sha2";
import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from "@oslojs/encoding";

/** A random secret token: 25 bytes (200 bits), base32. */
export function generateToken(): string {
  const bytes = new Uint8Array(25);
  crypto.getRandomValues(bytes);
  return encodeBase32LowerCaseNoPadding(bytes);
}

/** hex(SHA-256(value)): how tokens are stored, so a leaked table grants nothing. */
export function hashToken(value: string): string {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(value)));
}

/** A random id for new users: 16 bytes, base32. */
export function generateId(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return encodeBase32LowerCaseNoPadding(bytes);
}
