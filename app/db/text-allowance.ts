import { and, eq, sql } from "drizzle-orm";
import { TEXT_COUNTRY_CODES } from "~/domain/phone";
import type { Db } from "./client.server";
import { textSettings, textUsage } from "./schema";

/**
 * The account's text settings and the month's allowance (decisions/069), for Settings, the claim
 * of a text step and the plan's hold. The month is app/domain/phone.ts `textMonth` (UTC).
 */

export interface TextSettings {
  enabled: boolean;
  /** ISO 3166 codes among TEXT_COUNTRY_CODES. */
  countries: string[];
}

export const TEXT_SETTINGS_OFF: TextSettings = { enabled: false, countries: [] };

/** The stored comma-separated list, keeping only the countries Dunly offers. */
export function countriesOf(stored: string): string[] {
  return stored
    .split(",")
    .map((c) => c.trim())
    .filter((c) => (TEXT_COUNTRY_CODES as readonly string[]).includes(c));
}

/** The owner's text settings: off without a row. */
export async function textSettingsOf(db: Db, ownerId: string): Promise<TextSettings> {
  const row = await db
    .select({ enabled: textSettings.enabled, countries: textSettings.countries })
    .from(textSettings)
    .where(eq(textSettings.ownerId, ownerId))
    .get();
  return row ? { enabled: row.enabled, countries: countriesOf(row.countries) } : TEXT_SETTINGS_OFF;
}

/** Saves the owner's text settings (one row per account). */
export function saveTextSettingsStatement(db: Db, ownerId: string, settings: TextSettings, now: number) {
  const values = { enabled: settings.enabled, countries: settings.countries.join(","), updatedAt: now };
  return db
    .insert(textSettings)
    .values({ ownerId, ...values })
    .onConflictDoUpdate({ target: textSettings.ownerId, set: values });
}

/** Texts the owner sent (claimed) in `month` ("YYYY-MM"). */
export async function textsUsed(db: Db, ownerId: string, month: string): Promise<number> {
  const row = await db
    .select({ used: textUsage.used })
    .from(textUsage)
    .where(and(eq(textUsage.ownerId, ownerId), eq(textUsage.month, month)))
    .get();
  return row?.used ?? 0;
}

/**
 * Takes one text of the month's allowance, only while fewer than `allowance` are taken: the claim
 * of a text puts this in its own batch and sends only when it returned a row (RETURNING used), so
 * two claims can never both take the last text. An allowance of 0 (a plan without texts) takes none.
 */
export function takeTextStatement(db: Db, ownerId: string, month: string, allowance: number) {
  return db
    .insert(textUsage)
    .select(
      db
        .select({
          ownerId: sql<string>`${ownerId}`.as("owner_id"),
          month: sql<string>`${month}`.as("month"),
          used: sql<number>`1`.as("used"),
        })
        .from(sql`(SELECT 1)`)
        .where(sql`${allowance} > 0`),
    )
    .onConflictDoUpdate({
      target: [textUsage.ownerId, textUsage.month],
      set: { used: sql`${textUsage.used} + 1` },
      setWhere: sql`${textUsage.used} < ${allowance}`,
    })
    .returning({ used: textUsage.used });
}
