import { decodeBase64, encodeBase64 } from "@oslojs/encoding";
import { eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { passwordCredentials, users } from "~/db/schema";

/** Workers in production reject PBKDF2 above 100,000 iterations; local workerd does not. */
export const MAX_PBKDF2_ITERATIONS = 100_000;
const PASSWORD_ITERATIONS = MAX_PBKDF2_ITERATIONS;

async function derive(password: string, salt: Uint8Array<ArrayBuffer>, iterations: number) {
  if (iterations > MAX_PBKDF2_ITERATIONS) throw new Error(`PBKDF2 iterations above ${MAX_PBKDF2_ITERATIONS}`);
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(password), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, key, 256);
  return new Uint8Array(bits);
}

/** Hashes a password with PBKDF2-SHA256 and a fresh 16-byte salt; parameters are stored with it. */
export async function hashPassword(password: string, iterations = PASSWORD_ITERATIONS) {
  const salt = new Uint8Array(16);
  crypto.getRandomValues(salt);
  const hash = await derive(password, salt, iterations);
  return { hash: encodeBase64(hash), salt: encodeBase64(salt), iterations };
}

function constantTimeEqual(a: Uint8Array, b: Uint8Array) {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}

export async function verifyPassword(password: string, stored: { hash: string; salt: string; iterations: number }) {
  const hash = await derive(password, new Uint8Array(decodeBase64(stored.salt)), stored.iterations);
  return constantTimeEqual(hash, decodeBase64(stored.hash));
}

export async function setPassword(db: Db, userId: string, password: string) {
  const credential = await hashPassword(password);
  await db
    .insert(passwordCredentials)
    .values({ userId, ...credential })
    .onConflictDoUpdate({ target: passwordCredentials.userId, set: credential });
}

export async function hasPassword(db: Db, userId: string) {
  const row = await db
    .select({ userId: passwordCredentials.userId })
    .from(passwordCredentials)
    .where(eq(passwordCredentials.userId, userId))
    .get();
  return Boolean(row);
}

export async function checkUserPassword(db: Db, userId: string, password: string) {
  const row = await db.select().from(passwordCredentials).where(eq(passwordCredentials.userId, userId)).get();
  return row ? verifyPassword(password, row) : false;
}

// A fixed credential to verify against when the e-mail is unknown, so timing does not reveal accounts.
let decoy: Promise<{ hash: string; salt: string; iterations: number }> | null = null;

/** The user id whose e-mail and password match, or null; an unknown e-mail costs the same time. */
export async function authenticateWithPassword(db: Db, email: string, password: string) {
  const row = await db
    .select({
      userId: users.id,
      hash: passwordCredentials.hash,
      salt: passwordCredentials.salt,
      iterations: passwordCredentials.iterations,
    })
    .from(users)
    .innerJoin(passwordCredentials, eq(passwordCredentials.userId, users.id))
    .where(eq(users.email, email.toLowerCase()))
    .get();
  if (!row) {
    decoy ??= hashPassword("decoy-password");
    await verifyPassword(password, await decoy);
    return null;
  }
  return (await verifyPassword(password, row)) ? row.userId : null;
}
