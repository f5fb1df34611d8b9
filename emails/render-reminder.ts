import { createElement } from "react";
import ReminderEmail, { type ReminderEmailProps, reminderContent } from "./reminder";
import { renderEmail, toPlainText } from "./render-email";

export type { ReminderEmailProps } from "./reminder";

/** Subject, HTML and plain text of one reminder; the subject is always a single line. */
export async function renderReminder(
  props: ReminderEmailProps,
): Promise<{ subject: string; html: string; text: string }> {
  const { subject } = reminderContent(props);
  const html = await renderEmail(createElement(ReminderEmail, props));
  // Converting the HTML we already have avoids rendering the tree a second time. The opt-out URL
  // the 'Pay now' and the "I've paid" URLs are shown in angle brackets, so the full stop after it is not read as part of it.
  // The statement is a data table: its columns line up in the text.
  const text = toPlainText(html, {
    selectors: [
      {
        selector: "table[data-statement]",
        format: "dataTable",
        options: { uppercaseHeaderCells: false, colSpacing: 3 },
      },
      {
        selector: "a[data-opt-out]",
        format: "anchor",
        options: { linkBrackets: ["<", ">"], hideLinkHrefIfSameAsText: true },
      },
      {
        selector: "a[data-pay]",
        format: "anchor",
        options: { linkBrackets: ["<", ">"], hideLinkHrefIfSameAsText: true },
      },
      {
        selector: "a[data-paid]",
        format: "anchor",
        options: { linkBrackets: ["<", ">"], hideLinkHrefIfSameAsText: true },
      },
      {
        selector: "a[data-portal]",
        format: "anchor",
        options: { linkBrackets: ["<", ">"], hideLinkHrefIfSameAsText: true },
      },
    ],
  });
  return { subject, html, text };
}
