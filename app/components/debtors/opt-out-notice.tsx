import { useEffect, useId, useRef, useState } from "react";
import { useFetcher } from "react-router";
import type { debtorAction } from "~/actions/debtor-action.server";
import { notify, type ToastArea } from "~/components/toast";
import { Button, SubmitButton } from "~/components/ui/button";
import { CONSENT_CONFIRMATION, DEBTOR_INTENTS } from "~/schemas/intents";
import { useFormResult } from "~/ui/use-form-result";

const CONSENT_INTENT = DEBTOR_INTENTS.consent;

/**
 * The consent form's fetcher, shared by key with the dialog around the notice: the notice goes as
 * soon as the consent is recorded (the debtor is no longer opted out), so the dialog tells the answer.
 */
export const consentFetcherKey = (debtorId: number) => `debtor-consent-${debtorId}`;

/** The consent's answer as a toast, for the component that outlives the notice. */
export function useConsentAnswer(debtorId: number, area: ToastArea) {
  const fetcher = useFetcher<typeof debtorAction>({ key: consentFetcherKey(debtorId) });
  useFormResult(fetcher, [CONSENT_INTENT], (data) => {
    if (data.message) notify(data.ok ? "success" : "error", data.message, area);
  });
}

/**
 * Shown for a debtor whose address opted out: why nothing is sent, and "Record
 * renewed consent", which first asks for an explicit confirmation inline. Only then the address
 * may get reminders again; stopped schedules stay stopped until the user resumes them.
 */
export function OptOutNotice({ debtorId, email }: { debtorId: number; email: string }) {
  // Its answer is told by useConsentAnswer in the dialog, which stays when this notice goes.
  const fetcher = useFetcher<typeof debtorAction>({ key: consentFetcherKey(debtorId) });
  const [confirming, setConfirming] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const question = useRef<HTMLParagraphElement>(null);
  // Whether the keyboard focus follows the confirmation opening and closing (not on first render).
  const moveFocus = useRef(false);
  const titleId = useId();
  useEffect(() => {
    if (!moveFocus.current) return;
    // Opening: a screen reader reads the question first. Cancel: back where the user started.
    (confirming ? question.current : opener.current)?.focus();
  }, [confirming]);
  const toggle = (open: boolean) => {
    moveFocus.current = true;
    setConfirming(open);
  };
  useFormResult(fetcher, [CONSENT_INTENT], (data) => {
    if (data.ok) setConfirming(false);
  });

  return (
    <section
      aria-labelledby={titleId}
      className="flex flex-col gap-3 rounded-md border border-warning bg-warning/10 px-4 py-3 text-sm"
    >
      <h3 id={titleId} className="font-semibold">
        Opted out
      </h3>
      <p className="break-words">
        <span className="break-all">{email}</span> opted out of your reminders on this address. Dunly sends them nothing
        until you record that they agreed again.
      </p>
      {confirming ? (
        <fetcher.Form method="post" className="flex flex-col gap-3">
          <input type="hidden" name="intent" value={CONSENT_INTENT} />
          <input type="hidden" name="id" value={debtorId} />
          <input type="hidden" name="confirm" value={CONSENT_CONFIRMATION} />
          <p ref={question} tabIndex={-1} className="outline-none">
            Only continue if they told you they want to receive payment reminders again. Their stopped reminders stay
            stopped until you resume them.
          </p>
          <div className="flex flex-wrap justify-end gap-2">
            <Button type="button" variant="outline" onClick={() => toggle(false)}>
              Cancel
            </Button>
            <SubmitButton busy={fetcher.state !== "idle"} size="wrap" className="text-left">
              Yes, they agreed to receive reminders again
            </SubmitButton>
          </div>
        </fetcher.Form>
      ) : (
        <div className="flex justify-end">
          <Button ref={opener} type="button" variant="outline" onClick={() => toggle(true)}>
            Record renewed consent
          </Button>
        </div>
      )}
    </section>
  );
}
