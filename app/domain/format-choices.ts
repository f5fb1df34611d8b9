import { formatDate } from "./dates";
import { amountExample, NUMBER_LOCALES, type NumberLocale } from "./number-locale";

/** The day the format list writes as its example. */
const DATE_EXAMPLE = "2026-11-29";

let choices: { value: NumberLocale; label: string }[] | undefined;
/** Each format as Settings lists it: "1.234,56 · 29.11.2026 · Deutsch (Deutschland)"; made once per isolate. */
export function numberFormatChoices(): { value: NumberLocale; label: string }[] {
  choices ??= NUMBER_LOCALES.map((l) => ({
    value: l,
    label: `${amountExample(l)} · ${formatDate(DATE_EXAMPLE, l)} · ${new Intl.DisplayNames([l], { type: "language" }).of(l) ?? l}`,
  }));
  return choices;
}
