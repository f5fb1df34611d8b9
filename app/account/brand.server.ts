import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { getDb } from "~/db/client.server";
import { users } from "~/db/schema";
import { mayRemovePoweredBy } from "~/domain/brand";
import type { PlanState } from "~/domain/plans";
import { storeProfileImage } from "./images.server";

/**
 * The user's brand (docs/decisions/058): its stored values, the logo in R2 and the writes of the
 * Brand tab. The logo is stored exactly as the profile photo is (storeProfileImage: size and type
 * checked from its bytes, a key the server makes under the owner's id, so the account's deletion
 * removes it with the photos); its random half is its public name (/logos/<name>).
 */

/** The brand columns of the session's user row. */
export async function getBrand(db: Db, userId: string) {
  const [row] = await db
    .select({
      brandLogo: users.brandLogo,
      brandAccent: users.brandAccent,
      brandSignature: users.brandSignature,
      brandPoweredBy: users.brandPoweredBy,
    })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row ?? { brandLogo: null, brandAccent: null, brandSignature: null, brandPoweredBy: true };
}

/** The R2 key of a logo: under its owner's id, as every profile image. */
export function logoObjectKey(userId: string, logoName: string) {
  return `${userId}/${logoName}`;
}

/**
 * Stores an uploaded logo (throws ImageRejected for a file too large or not JPEG, PNG or WebP) and
 * makes it the account's logo; the one it replaces is deleted after the answer.
 */
export async function replaceLogo(
  env: Env,
  ctx: Pick<ExecutionContext, "waitUntil">,
  userId: string,
  body: ArrayBuffer,
) {
  const key = await storeProfileImage(env, userId, body);
  const name = key.slice(userId.length + 1);
  const db = getDb(env.DB);
  let previous: string | null;
  try {
    previous = await setLogo(db, userId, name);
  } catch (error) {
    ctx.waitUntil(env.IMAGES.delete(key));
    throw error;
  }
  if (previous && previous !== name) ctx.waitUntil(env.IMAGES.delete(logoObjectKey(userId, previous)));
}

/** Removes the account's logo (and its object). False: there was none. */
export async function removeLogo(env: Env, ctx: Pick<ExecutionContext, "waitUntil">, userId: string) {
  const previous = await setLogo(getDb(env.DB), userId, null);
  if (previous) ctx.waitUntil(env.IMAGES.delete(logoObjectKey(userId, previous)));
  return previous !== null;
}

async function setLogo(db: Db, userId: string, name: string | null) {
  const [before] = await db.batch([
    db.select({ brandLogo: users.brandLogo }).from(users).where(eq(users.id, userId)),
    db.update(users).set({ brandLogo: name }).where(eq(users.id, userId)),
  ]);
  return before[0]?.brandLogo ?? null;
}

export const POWERED_BY_REFUSED =
  "Only the Aggressive plan can remove “Powered by Dunly”. Upgrade on the Pricing page to remove it.";

/**
 * Saves the accent (normalized #rrggbb; null: Dunly's violet), the signature (null: none) and
 * "Powered by Dunly". Turning that off on a plan other than the top one is refused: the answer
 * says why, nothing is written.
 */
export async function saveBrand(
  db: Db,
  userId: string,
  plan: PlanState,
  values: { accent: string | null; signature: string | null; poweredBy: boolean },
  now = Date.now(),
): Promise<{ ok: true } | { ok: false; field: "powered_by"; message: string }> {
  if (!values.poweredBy && !mayRemovePoweredBy(plan, now)) {
    return { ok: false, field: "powered_by", message: POWERED_BY_REFUSED };
  }
  await db
    .update(users)
    .set({ brandAccent: values.accent, brandSignature: values.signature, brandPoweredBy: values.poweredBy })
    .where(eq(users.id, userId));
  return { ok: true };
}

/** The owner of a public logo name (the unique index on users.brand_logo), or undefined (none, or being deleted). */
export async function logoOwner(db: Db, logoName: string) {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.brandLogo, logoName), isNull(users.deletingAt)))
    .limit(1);
  return row?.id;
}
