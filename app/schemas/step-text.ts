import * as v from "valibot";
import { isLanguage, type Language } from "~/domain/languages";
import { isTemplateId, type TemplateId } from "~/domain/presets";
import { isTone, type Tone } from "~/domain/strategies";
import { BODY_MAX, parseBody, parseSubject, SUBJECT_MAX } from "~/domain/template-body";

/**
 * Settings → E-mail texts (decisions/056): the user's subject and body of one step (template and
 * tone) in one language. The same schema checks the form in the browser and in the action; each
 * field's message names everything wrong with it (app/domain/template-body.ts).
 */
export const TEMPLATE_TEXT_INTENTS = { save: "template-text-save", reset: "template-text-reset" } as const;

const allErrors = (parse: (text: string) => { ok: true } | { ok: false; errors: string[] }) =>
  v.rawCheck<string>(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const parsed = parse(dataset.value);
    if (!parsed.ok) addIssue({ message: parsed.errors.join(" ") });
  });

export const StepTextSchema = v.object({
  template: v.pipe(
    v.string(),
    v.check((t) => isTemplateId(t), "Choose a step."),
    v.transform((t) => t as TemplateId),
  ),
  tone: v.pipe(
    v.string(),
    v.transform(Number),
    v.check((t) => isTone(t), "Choose a tone."),
    v.transform((t) => t as Tone),
  ),
  language: v.pipe(
    v.string(),
    v.check((l) => isLanguage(l), "Choose a language."),
    v.transform((l) => l as Language),
  ),
  // conform sends an emptied field as missing: the same message as a blank one.
  subject: v.pipe(
    v.string("Write a subject."),
    v.maxLength(SUBJECT_MAX * 4, `The subject can be at most ${SUBJECT_MAX} characters.`),
    allErrors(parseSubject),
  ),
  body: v.pipe(
    v.string("Write the e-mail's text."),
    v.maxLength(BODY_MAX * 2, `The text can be at most ${BODY_MAX.toLocaleString("en-US")} characters.`),
    allErrors(parseBody),
  ),
});
export type StepTextInput = v.InferOutput<typeof StepTextSchema>;
