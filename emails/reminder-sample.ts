/**
 * Sample values for the template preview, spread in with a template and a tone: the react-email
 * preview server's (`ReminderEmail.PreviewProps`, which checks them against ReminderEmailProps) and
 * the unit tests'. The in-app preview (app/routes/schedule.preview.ts, test-send-action.server.ts
 * `reminderProps`) takes only the sample debtor (name, statement and its today) and the sample
 * opt-out and "I've paid" links from here: the sender, their 'Pay now' page and whether reminders
 * repeat are the user's real ones. Plain data in a module of its own, importing nothing: the app
 * Worker takes it without the templates or react-email (the mail Worker renders the preview). Every value is recognisably a sample (example.com addresses and links,
 * a SAMPLE- invoice number).
 */
export const REMINDER_SAMPLE = {
  receiverName: "John Doe",
  receiverEmail: "john.doe@example.com",
  senderName: "Jane Smith",
  senderEmail: "jane@example.com",
  // A statement of two open invoices, $1,250.00 in all: one numbered and
  // overdue, one without a number and not yet due, so the preview shows both kinds of line and,
  // the statement being overdue, the wording that says how late ("10 days overdue").
  statement: [
    { number: "SAMPLE-1001", dueOn: "2026-11-30", balanceCents: 75000, currency: "USD" },
    { number: null, dueOn: "2026-12-31", balanceCents: 50000, currency: "USD" },
  ],
  today: "2026-12-10",
  senderCompany: null,
  locale: "en",
  // What the footer's opt-out line looks like; a real reminder links to its signed /u/ page.
  unsubscribeUrl: "https://example.com/u/sample-opt-out-link",
  // The sender's payment page and the debtor's signed "I've paid" page, as samples.
  payUrl: "https://example.com/pay",
  paidUrl: "https://example.com/p/sample-paid-link",
  // The debtor's signed page (their statement and answers), as a sample.
  portalUrl: "https://example.com/d/sample-portal-link",
};
