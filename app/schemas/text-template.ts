import * as v from "valibot";
import { TEXT_MAX_CHARS, textTemplateProblem } from "~/domain/text-message";

/**
 * The user's text-message template (decisions/070): one field, checked by the same rules in the
 * browser, the action and the API (app/domain/text-message.ts): the amount, where the invoice stands
 * and the link must be in it, nothing Dunly cannot fill in, and at most TEXT_MAX_CHARS characters
 * once filled in with the longest values and the opt-out line. Nothing typed is lost: a refusal
 * names what is wrong and the form keeps the text.
 */
export const TextTemplateSchema = v.object({
  // conform sends an emptied field as missing: the same message as a blank one.
  body: v.pipe(
    v.optional(v.string(), ""),
    // A bound on what is parsed at all, far above what can pass (the message says the real limit).
    v.maxLength(TEXT_MAX_CHARS * 4, `A text can be at most ${TEXT_MAX_CHARS} characters.`),
    v.rawCheck<string>(({ dataset, addIssue }) => {
      if (!dataset.typed) return;
      const problem = textTemplateProblem(dataset.value);
      if (problem) addIssue({ message: problem });
    }),
    v.transform((body) => body.replace(/\r\n?/g, "\n").trim()),
  ),
});
export type TextTemplateInput = v.InferOutput<typeof TextTemplateSchema>;
