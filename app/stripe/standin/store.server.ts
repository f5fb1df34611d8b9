import { and, eq, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { devStripeObjects } from "~/db/schema";

/**
 * The local Stripe stand-in's objects (decisions/017), kept in D1's dev_stripe_objects as Stripe's
 * own JSON: accounts, Checkout Sessions, customers, subscriptions. Development and test only.
 */
export type StripeJson = Record<string, unknown> & { id: string; object: string };

/** A new id with Stripe's prefix for the kind ("cs_test_…", "acct_…", "sub_…"). */
export function standInId(prefix: string): string {
  return `${prefix}_${crypto.randomUUID().replaceAll("-", "").slice(0, 24)}`;
}

export async function putObject(env: Env, data: StripeJson, account: string | null = null): Promise<StripeJson> {
  await getDb(env.DB)
    .insert(devStripeObjects)
    .values({ id: data.id, object: data.object, account, data: JSON.stringify(data) })
    .onConflictDoUpdate({ target: devStripeObjects.id, set: { data: JSON.stringify(data) } });
  return data;
}

export async function getObject(env: Env, id: string, object?: string): Promise<StripeJson | undefined> {
  const row = await getDb(env.DB)
    .select({ data: devStripeObjects.data, account: devStripeObjects.account })
    .from(devStripeObjects)
    .where(object ? and(eq(devStripeObjects.id, id), eq(devStripeObjects.object, object)) : eq(devStripeObjects.id, id))
    .get();
  return row ? (JSON.parse(row.data) as StripeJson) : undefined;
}

/** The connected account an object was made on (its Stripe-Account header), or null. */
export async function accountOf(env: Env, id: string): Promise<string | null> {
  const row = await getDb(env.DB)
    .select({ account: devStripeObjects.account })
    .from(devStripeObjects)
    .where(eq(devStripeObjects.id, id))
    .get();
  return row?.account ?? null;
}

/** Merges `changes` into the stored object and returns it; undefined when there is none. */
export async function updateObject(env: Env, id: string, changes: Record<string, unknown>) {
  const found = await getObject(env, id);
  if (!found) return undefined;
  const account = await accountOf(env, id);
  return putObject(env, { ...found, ...changes, id: found.id, object: found.object }, account);
}

/**
 * Stripe's form encoding as the SDK sends it (`a[b][0][c]=v`) back into nested objects and arrays.
 * Values stay strings, as Stripe reads them (the handlers convert numbers and booleans).
 */
export function parseStripeForm(body: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [rawKey, value] of new URLSearchParams(body)) {
    const path = rawKey.split(/\[|\]\[|\]/).filter((p) => p !== "");
    let node: Record<string, unknown> | unknown[] = root;
    path.forEach((part, i) => {
      const last = i === path.length - 1;
      const nextIsIndex = !last && /^\d+$/.test(path[i + 1] ?? "");
      const key: string | number = Array.isArray(node) ? Number(part) : part;
      const container = node as Record<string | number, unknown>;
      if (last) container[key] = value;
      else {
        container[key] ??= nextIsIndex ? [] : {};
        node = container[key] as Record<string, unknown> | unknown[];
      }
    });
  }
  return root;
}

// Billing (decisions/019) ---------------------------------------------------------------------------

/** A customer's subscriptions in the stand-in, newest first. */
export async function subscriptionsOf(env: Env, customer: string): Promise<StripeJson[]> {
  const rows = await getDb(env.DB)
    .select({ data: devStripeObjects.data })
    .from(devStripeObjects)
    .where(
      and(
        eq(devStripeObjects.object, "subscription"),
        sql`json_extract(${devStripeObjects.data}, '$.customer') = ${customer}`,
      ),
    );
  return rows
    .map((r) => JSON.parse(r.data) as StripeJson)
    .sort((a, b) => Number(b.created ?? 0) - Number(a.created ?? 0));
}

/** A subscription's items with its one item's price changed (Stripe's shape: items.data[0].price.id). */
export function withPrice(subscription: StripeJson, price: string) {
  const items = (subscription.items ?? { object: "list", data: [] }) as {
    object: string;
    data: Record<string, unknown>[];
  };
  const [first, ...rest] = items.data;
  return { ...items, data: [{ ...first, price: { id: price, object: "price" } }, ...rest] };
}
