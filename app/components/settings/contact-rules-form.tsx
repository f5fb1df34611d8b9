import { getFormProps, getSelectProps } from "@conform-to/react";
import { useFetcher } from "react-router";
import type { profileAction } from "~/actions/profile-action.server";
import { SubmitButton } from "~/components/ui/button";
import { FormField } from "~/components/ui/field";
import { CONTACT_DEFAULTS } from "~/domain/contact-rules";
import { ContactRulesSchema } from "~/schemas/contact-rules";
import { PROFILE_INTENTS } from "~/schemas/intents";
import { useFormResult } from "~/ui/use-form-result";
import { useValibotForm } from "~/ui/use-valibot-form";

const { startHour: EARLIEST, endHour: LATEST, maxPerWindow: MOST, windowDays } = CONTACT_DEFAULTS;
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const hourLabel = (h: number) => `${String(h).padStart(2, "0")}:00`;

export interface ContactSettings {
  startHour: number | null;
  endHour: number | null;
  maxPerWindow: number | null;
}

/**
 * The account's sending rules: the hours reminders may reach a debtor (in the debtor's own time
 * zone) and how many one debtor may get in a week. Only tighter than Dunly's defaults.
 */
export function ContactRulesForm({ settings }: { settings: ContactSettings }) {
  const fetcher = useFetcher<typeof profileAction>();
  const busy = fetcher.state !== "idle";
  const reply = useFormResult(fetcher, [PROFILE_INTENTS.contactRules]);
  const [form, fields] = useValibotForm(ContactRulesSchema, {
    id: "contact-rules-form",
    lastResult: busy ? undefined : reply?.result,
    defaultValue: {
      start_hour: String(settings.startHour ?? EARLIEST),
      end_hour: String(settings.endHour ?? LATEST),
      max_per_week: String(settings.maxPerWindow ?? MOST),
    },
  });
  const select = "mt-1 h-10 w-full rounded-md border border-border bg-background px-3 text-sm";
  return (
    <section aria-labelledby="contact-rules-title" className="rounded-xl border border-border bg-surface p-6">
      <h2 id="contact-rules-title" className="text-xl font-semibold">
        Sending rules
      </h2>
      <p className="mt-1 text-sm text-muted">
        Reminders reach a debtor only within these hours of their own time zone, and at most this many in {windowDays}{" "}
        days. A reminder due outside them waits for the next allowed moment; none is skipped. Dunly never allows more
        than {hourLabel(EARLIEST)}–{hourLabel(LATEST)} and {MOST} a week.
      </p>
      <fetcher.Form method="post" {...getFormProps(form)} className="mt-4 flex max-w-md flex-col gap-4">
        <input type="hidden" name="intent" value={PROFILE_INTENTS.contactRules} />
        <div className="grid grid-cols-2 gap-4">
          <FormField meta={fields.start_hour} label="From">
            <select {...getSelectProps(fields.start_hour)} key={fields.start_hour.key} className={select}>
              {range(EARLIEST, LATEST - 1).map((h) => (
                <option key={h} value={h}>
                  {hourLabel(h)}
                </option>
              ))}
            </select>
          </FormField>
          <FormField meta={fields.end_hour} label="Until">
            <select {...getSelectProps(fields.end_hour)} key={fields.end_hour.key} className={select}>
              {range(EARLIEST + 1, LATEST).map((h) => (
                <option key={h} value={h}>
                  {hourLabel(h)}
                </option>
              ))}
            </select>
          </FormField>
        </div>
        <FormField meta={fields.max_per_week} label={`Most reminders to one debtor in ${windowDays} days`}>
          <select {...getSelectProps(fields.max_per_week)} key={fields.max_per_week.key} className={select}>
            {range(1, MOST).map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </FormField>
        <div role="status" aria-live="polite" className="text-sm text-success">
          {!busy && reply?.ok ? reply.message : null}
        </div>
        <SubmitButton busy={busy} className="self-start">
          Save sending rules
        </SubmitButton>
      </fetcher.Form>
    </section>
  );
}
