import {
  Ban,
  CalendarCheck,
  CalendarClock,
  CalendarX,
  CircleCheck,
  CircleDollarSign,
  Clock,
  FileUp,
  Handshake,
  Mail,
  MailWarning,
  MessageSquare,
  MessageSquareWarning,
  Pause,
  Play,
  ShieldCheck,
} from "lucide-react";
import { useEffect, useId } from "react";
import { Link, useFetcher } from "react-router";
import type { compactTimeline } from "~/actions/debtor-timeline.server";
import type { DebtorTimeline as Timeline, TimelineEntry, UpcomingSend } from "~/debtors/index.server";
import { formatDate, formatDateTime } from "~/domain/dates";
import { isTestSend } from "~/domain/delivery-labels";
import { formatMoney } from "~/domain/money";
import { templateName } from "~/domain/presets";
import { strategyLabel } from "~/domain/strategies";
import { useLocale } from "~/ui/root-data";
import { DebtorResponses } from "./debtor-responses";

const EMAIL_LABELS: Record<string, string> = {
  sent: "Reminder sent",
  sending: "Reminder sending",
  failed: "Reminder failed",
  skipped: "Reminder not sent",
  bounced: "Reminder bounced",
  complained: "Reminder marked as spam",
};

/** A text step's delivery (decisions/070). */
const TEXT_LABELS: Record<string, string> = {
  sent: "Text message sent",
  sending: "Text message sending",
  failed: "Text message failed",
  skipped: "Text message not sent",
};

const EVENT_LABELS: Record<string, string> = {
  opted_out: "Opted out",
  text_opted_out: "Texted STOP: no more text messages",
  text_opted_in: "Texted START: text messages may resume",
  text_held: "A text message waits: this month's texts are used up",
  consent_renewed: "Consent to reminders renewed",
  bounced: "Address bounced",
  complained: "Marked a reminder as spam",
  paid_claimed: "Said they have paid",
  paid_claim_confirmed: "Payment claim confirmed",
  paid_claim_rejected: "Payment claim not received",
  reminders_resumed: "Reminders resumed",
  schedule_created: "Schedule created",
  schedule_updated: "Schedule changed",
  schedule_paused: "Schedule paused",
  schedule_resumed: "Schedule resumed",
  schedule_deleted: "Schedule deleted",
  schedule_ended: "Schedule ended after its last step",
  imported: "Imported from CSV",
  // From the debtor's page, and the user's answers.
  promised: "Promised to pay",
  promise_broken: "Promise not kept",
  promise_consent: "New promise allowed",
  disputed: "Disputed an invoice",
  dispute_resolved: "Dispute resolved",
  payment_pending: "Bank payment online pending",
  payment_failed: "Bank payment online failed",
  paid_online: "Paid online (Stripe)",
  payment_refunded: "Payment online refunded",
  payment_dispute_lost: "Payment online lost in a dispute",
  // E-mail replies to reminders (decisions/020).
  replied: "Replied",
  auto_replied: "Automatic reply",
  reply_handled: "Reply handled",
  // A copied contact (decisions/057); the detail is its address.
  contact_opted_out: "A copied contact opted out of copies",
  contact_bounced: "A copied contact's address bounced",
  // Late-payment charges (decisions/065); the detail is the charge and its amount.
  charge_waived: "Late-payment charge waived",
  charge_restored: "Late-payment charge restored",
  // Payment plans (decisions/066); the detail says the plan.
  plan_requested: "Asked for a payment plan",
  plan_offered: "Payment plan offered",
  plan_accepted: "Payment plan agreed",
  plan_declined: "Payment plan declined",
  plan_cancelled: "Payment plan offer withdrawn",
  plan_missed: "Instalment missed",
  plan_broken: "Payment plan ended: an instalment was missed",
  plan_completed: "Payment plan paid in full",
};

const EVENT_ICONS: Record<string, typeof Mail> = {
  opted_out: Ban,
  text_opted_out: Ban,
  text_opted_in: ShieldCheck,
  text_held: MailWarning,
  consent_renewed: ShieldCheck,
  bounced: MailWarning,
  complained: MailWarning,
  paid_claimed: CircleDollarSign,
  paid_claim_confirmed: CircleDollarSign,
  paid_claim_rejected: CircleDollarSign,
  reminders_resumed: Play,
  schedule_created: CalendarClock,
  schedule_updated: CalendarClock,
  schedule_paused: Pause,
  schedule_resumed: Play,
  schedule_deleted: CalendarClock,
  schedule_ended: CalendarCheck,
  imported: FileUp,
  promised: Handshake,
  promise_broken: CalendarX,
  promise_consent: CalendarCheck,
  disputed: MessageSquareWarning,
  dispute_resolved: CircleCheck,
  payment_pending: Clock,
  payment_failed: CircleDollarSign,
  paid_online: CircleDollarSign,
  payment_refunded: CircleDollarSign,
  payment_dispute_lost: CircleDollarSign,
  replied: MessageSquareWarning,
  auto_replied: Mail,
  reply_handled: CircleCheck,
  contact_opted_out: Ban,
  contact_bounced: MailWarning,
  charge_waived: CircleDollarSign,
  charge_restored: CircleDollarSign,
  plan_requested: Handshake,
  plan_offered: Handshake,
  plan_accepted: Handshake,
  plan_declined: Ban,
  plan_cancelled: Ban,
  plan_missed: CalendarX,
  plan_broken: CalendarX,
  plan_completed: CalendarCheck,
};

/** One entry as readable text: the headline, a detail line (or null), and whether it is bad news. */
export function describeEntry(
  e: TimelineEntry,
  currency: string,
  locale?: string,
): { title: string; detail: string | null; tone: "bad" | "plain"; Icon: typeof Mail } {
  switch (e.kind) {
    case "email": {
      const what = `${templateName(e.template)} · ${strategyLabel(e.tone)}`;
      // A test send went to the user, not to the debtor: never listed as a reminder to them.
      if (isTestSend(e)) {
        const title = `${e.status === "sent" ? "Test e-mail sent" : `Test e-mail ${e.status}`} to you · ${what}`;
        return { title, detail: e.recipient ?? e.error, tone: "plain", Icon: Mail };
      }
      if (e.status === "deferred")
        return { title: `Held back: ${e.error ?? ""}`.trim(), detail: what, tone: "plain", Icon: Clock };
      const text = e.channel === "text";
      const label = text
        ? (TEXT_LABELS[e.status] ?? `Text message ${e.status}`)
        : (EMAIL_LABELS[e.status] ?? `Reminder ${e.status}`);
      const title = `${label} · ${what}`;
      const delivered = e.deliveredAt ? "Delivered" : null;
      const bad = e.status === "failed" || e.status === "bounced" || e.status === "complained";
      return {
        title,
        detail: e.error ?? (text && e.recipient ? [e.recipient, delivered].filter(Boolean).join(" · ") : delivered),
        tone: bad ? "bad" : "plain",
        Icon: bad ? MailWarning : text ? MessageSquare : Mail,
      };
    }
    case "payment":
      return {
        title: `Payment ${formatMoney(e.amountCents, currency)}${e.note ? ` · ${e.note}` : ""}`,
        detail: `Paid on ${formatDate(e.paidOn, locale)}`,
        tone: "plain",
        Icon: CircleDollarSign,
      };
    case "event": {
      const label = EVENT_LABELS[e.type] ?? e.type;
      const bad =
        e.type === "bounced" ||
        e.type === "complained" ||
        e.type === "opted_out" ||
        e.type === "text_opted_out" ||
        e.type === "promise_broken" ||
        e.type === "plan_missed" ||
        e.type === "plan_broken";
      const Icon = EVENT_ICONS[e.type] ?? CalendarClock;
      if (e.type === "bounced" && e.detail) return { title: `${label}: ${e.detail}`, detail: null, tone: "bad", Icon };
      // Its detail says it all: "Promised to pay by 30 December 2026".
      if (e.type === "promised" && e.detail) return { title: e.detail, detail: null, tone: "plain", Icon };
      // "Disputed INV-7: <reason>".
      if (e.type === "disputed" && e.detail)
        return { title: `Disputed ${e.detail}`, detail: null, tone: "plain", Icon };
      return { title: e.detail ? `${label} · ${e.detail}` : label, detail: null, tone: bad ? "bad" : "plain", Icon };
    }
  }
}

/** When the entry happened: a reminder when it went (or was claimed), anything else when recorded. */
const entryTime = (e: TimelineEntry) => (e.kind === "email" ? (e.sentAt ?? e.at) : e.at);

/** The timeline as an ordered list, newest first. */
export function TimelineList({
  entries,
  currency,
  timeZone,
  labelledBy,
  emptyText = "Nothing has happened with this debtor yet.",
}: {
  entries: readonly TimelineEntry[];
  currency: string;
  timeZone: string;
  labelledBy: string;
  /** What an empty list says (the debtor's page says where older history went, when it was archived). */
  emptyText?: string;
}) {
  const locale = useLocale();
  if (entries.length === 0) return <p className="text-sm text-muted">{emptyText}</p>;
  return (
    <ol className="flex flex-col gap-2" aria-labelledby={labelledBy} data-testid="timeline">
      {entries.map((e) => {
        const { title, detail, tone, Icon } = describeEntry(e, currency, locale);
        return (
          <li key={e.key} className="flex gap-3 rounded-lg border border-border bg-background p-3 text-sm">
            <Icon className={`mt-0.5 h-4 w-4 shrink-0 ${tone === "bad" ? "text-danger" : "text-muted"}`} aria-hidden />
            <div className="min-w-0 flex-1">
              <p className={`break-words font-medium ${tone === "bad" ? "text-danger" : ""}`}>{title}</p>
              {detail && <p className="break-words text-muted">{detail}</p>}
              <p className="text-xs text-muted">
                <time dateTime={new Date(entryTime(e)).toISOString()}>
                  {formatDateTime(entryTime(e), timeZone, locale)}
                </time>
              </p>
            </div>
          </li>
        );
      })}
    </ol>
  );
}

/** Why the next send goes later than it is due, or null. */
function upcomingNote(u: UpcomingSend, timeZone: string, locale: string) {
  if (u.heldBack) return `Held back: ${u.heldBack}`;
  if (u.waitsFor === "quiet-hours")
    return `Due ${formatDateTime(u.dueAt, timeZone, locale)}; it waits for the debtor's daytime in their time zone.`;
  if (u.waitsFor === "contact-cap")
    return `Due ${formatDateTime(u.dueAt, timeZone, locale)}; it waits because the debtor got the most reminders allowed in 7 days.`;
  return null;
}

/** "Next reminder: <when it really goes>", with why it waits, for each enabled schedule. */
export function NextReminder({ upcoming, timeZone }: { upcoming: readonly UpcomingSend[]; timeZone: string }) {
  const locale = useLocale();
  const [next, ...others] = upcoming;
  if (!next) {
    return (
      <p className="text-sm" data-testid="next-reminder">
        Next reminder: <strong>none scheduled</strong>
      </p>
    );
  }
  const note = upcomingNote(next, timeZone, locale);
  return (
    <div className="flex flex-col gap-1 text-sm" data-testid="next-reminder">
      <p>
        Next reminder: <strong>{next.heldBack ? "held back" : formatDateTime(next.goesAt, timeZone, locale)}</strong>
        {next.what ? `, ${next.what}` : ""}
      </p>
      {note && <p className="text-muted">{note}</p>}
      {others.length > 0 && (
        <p className="text-muted">
          {others.length === 1 ? "Another schedule sends" : `${others.length} other schedules send`} later, next{" "}
          {formatDateTime(others[0]?.goesAt, timeZone, locale)}.
        </p>
      )}
    </div>
  );
}

type Loaded = Awaited<ReturnType<typeof compactTimeline>>;

/**
 * The compact timeline in the debtor's Configure modal: the latest entries and the next reminder,
 * loaded from /debtors/:id/timeline when the modal opens and again when the balance or status
 * changes (a payment recorded in the modal appears at once), with a link to the full page.
 */
export function DebtorTimeline({
  debtor,
}: {
  debtor: { id: number; paidCents: number; debtCents: number; status: string };
}) {
  const headingId = useId();
  const fetcher = useFetcher<Loaded>();
  const load = fetcher.load;
  const refresh = `${debtor.paidCents}:${debtor.debtCents}:${debtor.status}`;
  useEffect(() => {
    // Read by the effect: a new balance or status loads the timeline again.
    void refresh;
    void load(`/debtors/${debtor.id}/timeline`);
  }, [debtor.id, refresh, load]);
  const data = fetcher.data && "timeline" in fetcher.data ? fetcher.data : null;
  const timeline: Timeline | null = data?.timeline?.debtor.id === debtor.id ? data.timeline : null;

  return (
    <section aria-labelledby={headingId} className="mt-6 flex flex-col gap-3 border-t border-border pt-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id={headingId} className="text-lg font-semibold">
          Timeline
        </h3>
        <Link to={`/debtors/${debtor.id}`} className="text-sm text-primary underline-offset-4 hover:underline">
          Full timeline
        </Link>
      </div>
      {!timeline ? (
        fetcher.state === "idle" && fetcher.data ? (
          <p className="text-sm text-danger" role="alert">
            The timeline could not be loaded.
          </p>
        ) : (
          <p className="text-sm text-muted" role="status">
            Loading timeline…
          </p>
        )
      ) : (
        <>
          <NextReminder upcoming={timeline.upcoming} timeZone={data?.timeZone ?? "UTC"} />
          <DebtorResponses debtor={timeline.debtor} disputes={timeline.disputes} timeZone={data?.timeZone ?? "UTC"} />
          <TimelineList
            entries={timeline.entries}
            currency={timeline.debtor.currency}
            timeZone={data?.timeZone ?? "UTC"}
            labelledBy={headingId}
          />
        </>
      )}
    </section>
  );
}
