import { and, eq, sql } from "drizzle-orm";
import { TEXT_COUNTRY_CODES } from "~/domain/phone";
import { DEFAULT_TEXT_TEMPLATE } from "~/domain/text-message";
import type { Db } from "./client.server";
import { textMessages, textSettings, textUsage } from "./schema";

/**
 * The account's text settings and the month's allowance (decisions/069), for Settings, the claim
 * of a text step and the plan's hold. The month is app/domain/phone.ts `textMonth` (UTC).
 */

export interface TextSettings {
  enabled: boolean;
  /** ISO 3166 codes among TEXT_COUNTRY_CODES. */
  countries: string[];
  /** The text step's words, as the user saved them (DEFAULT_TEXT_TEMPLATE until then). */
  template: string;
}

export const TEXT_SETTINGS_OFF: TextSettings = { enabled: false, countries: [], template: DEFAULT_TEXT_TEMPLATE };

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
    .select({ enabled: textSettings.enabled, countries: textSettings.countries, template: textSettings.template })
    .from(textSettings)
    .where(eq(textSettings.ownerId, ownerId))
    .get();
  return row
    ? {
        enabled: row.enabled,
        countries: countriesOf(row.countries),
        template: row.template ?? DEFAULT_TEXT_TEMPLATE,
      }
    : TEXT_SETTINGS_OFF;
}

/** Saves the owner's channel and countries (one row per account); the template is kept. */
export function saveTextSettingsStatement(
  db: Db,
  ownerId: string,
  settings: Pick<TextSettings, "enabled" | "countries">,
  now: number,
) {
  const values = { enabled: settings.enabled, countries: settings.countries.join(","), updatedAt: now };
  return db
    .insert(textSettings)
    .values({ ownerId, ...values })
    .onConflictDoUpdate({ target: textSettings.ownerId, set: values });
}

/**
 * Saves the owner's text template (validated by the caller with TextTemplateSchema; null: the
 * default words, DEFAULT_TEXT_TEMPLATE); channel and countries kept.
 */
export function saveTextTemplateStatement(db: Db, ownerId: string, template: string | null, now: number) {
  return db
    .insert(textSettings)
    .values({ ownerId, template, updatedAt: now })
    .onConflictDoUpdate({ target: textSettings.ownerId, set: { template, updatedAt: now } });
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
 * Takes one text of the month's allowance, only while fewer than `allowance` are taken, and, given
 * the text's idempotency `key`, only when nothing was asked under that key yet (a retry of the
 * same text takes nothing more). The consumer sends a text only when this returned a row or the
 * key was asked before: one statement, so two consumers can never both take the last text. An
 * allowance of 0 (a plan without texts) takes none.
 */
export function takeTextStatement(db: Db, ownerId: string, month: string, allowance: number, key?: string) {
  const fresh =
    key === undefined
      ? undefined
      : sql`NOT EXISTS (SELECT 1 FROM ${textMessages} WHERE ${textMessages.idempotencyKey} = ${key})`;
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
        .where(and(sql`${allowance} > 0`, fresh)),
    )
    .onConflictDoUpdate({
      target: [textUsage.ownerId, textUsage.month],
      set: { used: sql`${textUsage.used} + 1` },
      setWhere: sql`${textUsage.used} < ${allowance}`,
    })
    .returning({ used: textUsage.used });
}
