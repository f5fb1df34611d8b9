import type { RouterContextProvider } from "react-router";
import * as v from "valibot";
import { getApp, sessionUser } from "~/auth/context.server";
import { type Db, getDb } from "~/db/client.server";
import { withLogoOrigin } from "~/domain/brand";
import { addDays, MAX_STEP_OFFSET, MIN_STEP_OFFSET } from "~/domain/cadence";
import { isCalendarDate } from "~/domain/calendar-date";
import { formatDateTime } from "~/domain/dates";
import { DEFAULT_FREQUENCY, getFrequency } from "~/domain/frequencies";
import { debtorLanguage, isLanguage, type Language } from "~/domain/languages";
import { nextRoomAt, sendingLimits } from "~/domain/limits";
import { userLocale } from "~/domain/number-locale";
import { effectivePlan } from "~/domain/plans";
import { isTemplateId, type TemplateId } from "~/domain/presets";
import { toTone } from "~/domain/strategies";
import { parseStepText, type StepText } from "~/domain/template-body";
import { mail } from "~/mail/index.server";
import { reply } from "~/platform/action-result.server";
import { type AppConfig, linkOrigin } from "~/platform/config.server";
import {
  claimTestSend,
  countedInstants,
  debtorRemindedBefore,
  getSenderAndDebtors,
  getStatement,
  markDeliveryFailed,
  markDeliverySent,
  stepTexts,
} from "~/reminders/index.server";
import { SCHEDULE_INTENTS } from "~/schemas/intents";
import { SCHEDULE_SOMETHING_WRONG as SOMETHING_WRONG } from "~/schemas/messages";
import type { ReminderEmailProps } from "../../emails/reminder";
import {
  debtorValues,
  type ReminderChoice,
  reminderMessage,
  reminderProps,
  SAMPLE_LINKS,
} from "../../emails/reminder-message";

const TEST_SEND_INTENT = SCHEDULE_INTENTS.testSend;
export const CHOOSE_DEBTOR = "Choose a debtor to send a test for.";
/**
 * A chosen debtor without an open invoice: the engine would send them nothing, so neither the preview nor the test send shows a reminder.
 */
export const NO_OPEN_INVOICE =
  "No reminder would be sent: this debtor has no open invoice (disputed invoices are left out of reminders).";

/** A test of a text being edited that does not parse: the editor shows each field's errors. */
export const TEXT_HAS_ERRORS = "Fix the subject and text before sending a test.";

/** What the preview and a test send show: a reminder choice, and whose values (when chosen). */
export interface PreviewChoice extends ReminderChoice {
  debtorId: number | null;
  organizationId: number | null;
  /**
   * A due-date cadence's step (days from the due date) to show the e-mail of: the statement is
   * shown as on that day (app/domain/cadence.ts); null: as today.
   */
  step: number | null;
  /** The day of a coming e-mail ("YYYY-MM-DD", the outlook's): the statement is shown as on it. */
  on: string | null;
  /** It is the first of the coming e-mails: to a debtor never reminded, it speaks of no earlier one. */
  first: boolean;
  /** The language to show (the text editor's); null: the debtor's, else the user's. */
  language: Language | null;
  /** A text being edited, shown instead of the saved one (decisions/056); null: the saved text, else Dunly's. */
  custom: StepText | null;
}

const optionalId = v.optional(
  v.pipe(
    v.string(),
    v.trim(),
    v.transform((s) => (/^\d{1,15}$/.test(s) ? Number(s) : null)),
  ),
);

/**
 * The preview's query or a test send's form: unknown or malformed values fall back (the sample).
 * A `due_date` the form sends is not read: each invoice on the statement has its own.
 */
const PreviewChoiceSchema = v.object({
  template: v.pipe(v.string(), v.check(isTemplateId, "Unknown template")),
  tone: v.optional(v.string()),
  debtor_id: optionalId,
  organization_id: optionalId,
  frequency: v.optional(v.string()),
  step: v.optional(v.string()),
  on: v.optional(v.string()),
  first: v.optional(v.string()),
  language: v.optional(v.string()),
  subject: v.optional(v.string()),
  body: v.optional(v.string()),
});

/** A step offset within the cadence's range, or null. */
function stepOf(value: string | undefined): number | null {
  if (value === undefined || !/^-?\d{1,3}$/.test(value.trim())) return null;
  const n = Number(value.trim());
  return n >= MIN_STEP_OFFSET && n <= MAX_STEP_OFFSET ? n : null;
}

/**
 * The reminder as on the day it goes out: the outlook's day (`on`), or for a step of the sample
 * that many days from the oldest open invoice's due date, so the copy says "is due in 3 days" or
 * "7 days overdue" as it will then. Never a day before today: a preview never says "due in N days"
 * of a date that has passed.
 */
function onStepDay<P extends { statement: readonly { dueOn: string }[]; today: string }>(
  props: P,
  choice: Pick<PreviewChoice, "step" | "on">,
): P {
  const oldest = props.statement[0]?.dueOn;
  const day = choice.on ?? (choice.step === null || !oldest ? null : addDays(oldest, choice.step));
  return day && day > props.today ? { ...props, today: day } : props;
}

/** The preview's or test send's choice from its fields, or null for an unknown template. */
export function previewChoice(get: (name: string) => unknown): PreviewChoice | null {
  const field = (name: string) => {
    const value = get(name);
    return typeof value === "string" ? value : undefined;
  };
  const parsed = v.safeParse(PreviewChoiceSchema, {
    template: field("template") ?? "",
    tone: field("tone"),
    debtor_id: field("debtor_id"),
    organization_id: field("organization_id"),
    frequency: field("frequency"),
    step: field("step"),
    on: field("on"),
    first: field("first"),
    language: field("language"),
    subject: field("subject"),
    body: field("body"),
  });
  if (!parsed.success) return null;
  const { template, tone, debtor_id, organization_id, frequency, step, on, first, language, subject, body } =
    parsed.output;
  return {
    template: template as TemplateId,
    tone: toTone(Number(tone)),
    debtorId: debtor_id || null,
    organizationId: organization_id || null,
    // Missing or unknown: the form saves the default frequency, so the preview shows that.
    frequency: getFrequency(frequency?.trim() ?? "")?.id ?? DEFAULT_FREQUENCY,
    step: stepOf(step),
    on: on && isCalendarDate(on.trim()) ? on.trim() : null,
    first: first === "1",
    language: isLanguage(language) ? language : null,
    custom: subject !== undefined && body !== undefined ? { subject, body } : null,
  };
}

/**
 * The owner's user, organization (when it is theirs) and chosen debtor with the debtor's statement
 * (their open invoices, app/reminders/statement.server.ts): the two reads side by side. No debtor
 * (none chosen, or another user's, which looks missing): `debtor` undefined.
 */
async function senderAndStatement(db: Db, ownerId: string, choice: PreviewChoice) {
  const [{ user, debtors, org }, statement, remindedBefore, saved] = await Promise.all([
    getSenderAndDebtors(db, ownerId, choice.debtorId ? [choice.debtorId] : [], choice.organizationId),
    choice.debtorId ? getStatement(db, ownerId, choice.debtorId) : null,
    // Only the first coming e-mail can be a first contact.
    choice.debtorId && choice.first ? debtorRemindedBefore(db, ownerId, choice.debtorId) : true,
    // The user's own words for the step, unless the editor shows a text being edited.
    choice.custom ? [] : stepTexts(db, ownerId, { template: choice.template, tone: choice.tone }),
  ]);
  const debtor = user && statement ? debtors[0] : undefined;
  const language = choice.language ?? debtorLanguage(debtor?.language, user?.locale);
  const text = choice.custom ?? saved.find((t) => t.language === language);
  return {
    custom: text ? { subject: text.subject, body: text.body } : null,
    user,
    org,
    debtor,
    statement,
    firstContact: !remindedBefore,
    language,
  };
}

/** The values of a chosen debtor's reminder, or why there is none. */
export type DebtorReminder =
  | {
      debtor: { id: number; email: string };
      user: { email: string };
      props: ReturnType<typeof reminderProps> & Pick<ReminderEmailProps, "custom">;
    }
  | { refused: typeof NO_OPEN_INVOICE }
  | null;

/**
 * The reminder's values for the owner's chosen debtor: the debtor's name
 * and statement (their open invoices, with today in their zone at `now`), and the sender (the
 * organization when it is the owner's, else the user) with their payment page: what the engine
 * would send. Null when the debtor is not the owner's (another user's
 * looks missing): the caller shows the sample instead. `refused` when the debtor has no open
 * invoice: the engine would send nothing.
 */
export async function debtorReminderValues(
  db: Db,
  ownerId: string,
  choice: PreviewChoice,
  now = Date.now(),
): Promise<DebtorReminder> {
  if (!choice.debtorId) return null;
  const { user, org, debtor, statement, firstContact, custom, language } = await senderAndStatement(
    db,
    ownerId,
    choice,
  );
  if (!user || !debtor || !statement) return null;
  if (statement.lines.length === 0) return { refused: NO_OPEN_INVOICE };
  const props = reminderProps(choice, user, org, debtorValues(debtor, statement, now, firstContact), language);
  return { debtor, user, props: { ...onStepDay(props, choice), custom } };
}

/**
 * The preview's props (app/routes/schedule.preview.ts): the chosen debtor's values when the debtor
 * is the owner's (another user's is never shown), else the sample debtor's two-invoice statement;
 * the owner's own sender values either way, and sample opt-out and "I've paid" links. A chosen
 * debtor without an open invoice: `refused`, as the test send and the engine refuse them. Two
 * D1 reads, side by side.
 */
export async function previewReminderProps(
  db: Db,
  ownerId: string,
  choice: PreviewChoice,
  now = Date.now(),
): Promise<{ props: ReminderEmailProps } | { refused: typeof NO_OPEN_INVOICE }> {
  const { user, org, debtor, statement, firstContact, custom, language } = await senderAndStatement(
    db,
    ownerId,
    choice,
  );
  if (debtor && statement && statement.lines.length === 0) return { refused: NO_OPEN_INVOICE };
  const values = debtor && statement ? debtorValues(debtor, statement, now, firstContact) : undefined;
  return {
    props: {
      ...onStepDay(reminderProps(choice, user, org, values, language), choice),
      custom,
      // What the footer's opt-out line and the "I've paid" line look like: every reminder has both.
      ...SAMPLE_LINKS,
    },
  };
}

/**
 * The links a test e-mail carries instead of the debtor's signed ones: the opt-out, "I've paid"
 * and debtor's pages with a token that is never valid (they answer "no longer valid" and change
 * nothing). The real links would let a click in the user's own inbox — or a mail client's one-click
 * unsubscribe — opt the debtor out, claim they paid or show the user the debtor's own page.
 */
export function testLinks(config: AppConfig) {
  const origin = linkOrigin(config);
  return {
    unsubscribeUrl: `${origin}/u/test-send`,
    paidUrl: `${origin}/p/test-send`,
    portalUrl: `${origin}/d/test-send`,
  };
}

/**
 * "Send me a test" on /schedule: the previewed template and tone, with the chosen
 * debtor's values, to the signed-in user's own address. It counts toward the account's daily quota
 * (recorded as a delivery without a schedule) and is refused when the quota is used up.
 */
export async function testSend({
  context,
  formData,
  timeZone,
  now = Date.now(),
}: {
  context: Readonly<RouterContextProvider>;
  formData: FormData;
  timeZone: string;
  now?: number;
}) {
  const { env, config } = getApp(context);
  const user = await sessionUser(context);
  if (!user) return reply(TEST_SEND_INTENT, { status: 401, message: SOMETHING_WRONG });
  const choice = previewChoice((name) => formData.get(name));
  if (!choice) return reply(TEST_SEND_INTENT, { status: 400, message: "Choose a template to send a test of." });
  if (!choice.debtorId) return reply(TEST_SEND_INTENT, { status: 400, message: CHOOSE_DEBTOR });
  if (choice.custom && !parseStepText(choice.custom).ok)
    return reply(TEST_SEND_INTENT, { status: 400, message: TEXT_HAS_ERRORS });
  const db = getDb(env.DB);
  const values = await debtorReminderValues(db, user.id, choice, now);
  if (!values) return reply(TEST_SEND_INTENT, { status: 404, message: CHOOSE_DEBTOR });
  if ("refused" in values) return reply(TEST_SEND_INTENT, { status: 409, message: values.refused });

  const to = values.user.email.toLowerCase();
  // The plan's quota (app/domain/plans.ts); an account without a plan has the trial's for its own tests.
  const limits = sendingLimits(effectivePlan(user, now)?.id);
  const claimed = await claimTestSend(
    db,
    {
      ownerId: user.id,
      debtorId: values.debtor.id,
      template: choice.template,
      tone: choice.tone,
      recipient: to,
      accountDaily: limits.accountDaily,
    },
    now,
  );
  if (!claimed) {
    const { account } = await countedInstants(db, user.id, null, now);
    const next = nextRoomAt(account, limits.accountDaily);
    const message = `Daily limit of ${limits.accountDaily} reminders reached for this account.${next === null ? "" : ` The next one can be sent after ${formatDateTime(next, timeZone, userLocale(user.locale))}.`}`;
    return reply(TEST_SEND_INTENT, { status: 429, message });
  }

  const brand = values.props.brand && withLogoOrigin(values.props.brand, linkOrigin(config));
  const message = reminderMessage({ ...values.props, brand }, to, testLinks(config), "[Test] ");
  const result = await mail.reminder(env, message, claimed.key);
  if (!result.ok) {
    await markDeliveryFailed(db, claimed.id, result.error);
    return reply(TEST_SEND_INTENT, { status: 502, message: `The test e-mail could not be sent: ${result.error}` });
  }
  await markDeliverySent(db, claimed.id, result.id, Date.now());
  return reply(TEST_SEND_INTENT, { message: `Test e-mail sent to ${to}.`, count: 1 });
}
