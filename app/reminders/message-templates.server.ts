import { and, eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { messageTemplates } from "~/db/schema";
import type { Language } from "~/domain/languages";
import type { TemplateId } from "~/domain/presets";
import type { Tone } from "~/domain/strategies";
import type { StepText } from "~/domain/template-body";

/**
 * The reminders' texts in the user's own words (decisions/056): one subject and body per step
 * (template and tone) and language, in message_templates. The consumer reads them with the rest of
 * a reminder (app/reminders/firing.server.ts queuedReminders); the editor, the preview and the
 * test send here. Every read and write is the owner's.
 */

export interface StepKey {
  template: TemplateId;
  tone: Tone;
  language: Language;
}

const ofStep = (ownerId: string, key: Omit<StepKey, "language">) =>
  and(
    eq(messageTemplates.ownerId, ownerId),
    eq(messageTemplates.template, key.template),
    eq(messageTemplates.tone, key.tone),
  );

/** The owner's texts of one step, in every language they wrote it in. */
export async function stepTexts(
  db: Db,
  ownerId: string,
  key: Omit<StepKey, "language">,
): Promise<{ language: string; subject: string; body: string; updatedAt: number }[]> {
  return db
    .select({
      language: messageTemplates.language,
      subject: messageTemplates.subject,
      body: messageTemplates.body,
      updatedAt: messageTemplates.updatedAt,
    })
    .from(messageTemplates)
    .where(ofStep(ownerId, key));
}

/** Which steps and languages the owner has written (the editor's list marks them). */
export async function editedSteps(db: Db, ownerId: string): Promise<StepKey[]> {
  const rows = await db
    .select({ template: messageTemplates.template, tone: messageTemplates.tone, language: messageTemplates.language })
    .from(messageTemplates)
    .where(eq(messageTemplates.ownerId, ownerId));
  return rows as StepKey[];
}

/** Saves the owner's text of a step in a language (checked by the caller), replacing the one before. */
export async function saveStepText(db: Db, ownerId: string, key: StepKey, text: StepText, now = Date.now()) {
  const values = { subject: text.subject.trim(), body: text.body.replace(/\r\n?/g, "\n").trim(), updatedAt: now };
  await db
    .insert(messageTemplates)
    .values({ ownerId, ...key, ...values })
    .onConflictDoUpdate({
      target: [messageTemplates.ownerId, messageTemplates.template, messageTemplates.tone, messageTemplates.language],
      set: values,
    });
}

/** "Reset to Dunly's text": forgets the owner's text of a step in a language. False when there was none. */
export async function resetStepText(db: Db, ownerId: string, key: StepKey): Promise<boolean> {
  const removed = await db
    .delete(messageTemplates)
    .where(and(ofStep(ownerId, key), eq(messageTemplates.language, key.language)))
    .returning({ ownerId: messageTemplates.ownerId });
  return removed.length > 0;
}
