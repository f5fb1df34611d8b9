import { lazy, Suspense, useId, useState } from "react";
import { useFetcher } from "react-router";
import type { debtorAction } from "~/actions/debtor-action.server";
import { Badge } from "~/components/ui/badge";
import { Button, SubmitButton } from "~/components/ui/button";
import type { ContactRow } from "~/debtors/index.server";
import { CONTACT_STATE_LABELS, type ContactState, contactState, MAX_OTHER_CONTACTS } from "~/domain/contacts";
import type { ActionResult } from "~/platform/action-result";
import { CONTACT_INTENTS } from "~/schemas/intents";
import { useFormResult } from "~/ui/use-form-result";

// The form loads when it is first opened (decisions/027): the page shows the contacts without it.
const ContactForm = lazy(() => import("./contact-form").then((m) => ({ default: m.ContactForm })));

/** The debtor as the contacts section shows its primary contact. */
export interface ContactsDebtor {
  id: number;
  email: string;
  status: "active" | "paid" | "opted_out" | "bouncing";
  contactName: string | null;
  contactRole: string | null;
  /** The mobile in E.164 and the consent to text it (decisions/069); absent: not shown. */
  phone?: string | null;
  textConsentAt?: number | null;
}

const STATE_TONE: Record<ContactState, "good" | "neutral" | "warn" | "bad"> = {
  copied: "good",
  "not-copied": "neutral",
  "opted-out": "warn",
  bouncing: "bad",
};

/**
 * The debtor page's Contacts (decisions/057): the main address with its contact person (edited in
 * the debtor's form), then the others, each copied (CC) on reminders or not, with its state (opted
 * out of copies, bouncing); add, edit and remove them. Works without JavaScript: each form posts
 * to the page's action.
 */
export function DebtorContacts({
  debtor,
  contacts,
  onResult,
}: {
  debtor: ContactsDebtor;
  contacts: ContactRow[];
  onResult: (data: ActionResult) => void;
}) {
  const headingId = useId();
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<number | null>(null);
  const full = contacts.length >= MAX_OTHER_CONTACTS;
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={headingId} className="text-xl font-semibold">
          Contacts
        </h2>
        {!adding && !full && (
          <Button type="button" variant="outline" size="sm" onClick={() => setAdding(true)}>
            Add contact
          </Button>
        )}
      </div>
      <ul className="flex flex-col divide-y divide-border" data-testid="debtor-contacts">
        <li className="flex flex-col gap-1 py-2">
          <div className="flex flex-wrap items-center gap-2">
            <span className="font-medium break-words">{debtor.contactName ?? "No contact person given"}</span>
            <Badge tone="neutral">Main address</Badge>
            {debtor.status === "opted_out" && <Badge tone="warn">Opted out</Badge>}
            {debtor.status === "bouncing" && <Badge tone="bad">Address bounces</Badge>}
          </div>
          <span className="text-sm text-muted [overflow-wrap:anywhere]">
            {debtor.contactRole ? `${debtor.email} · ${debtor.contactRole}` : debtor.email}
          </span>
          {debtor.phone && (
            <span className="text-sm text-muted" data-testid="debtor-phone">
              {`Mobile ${debtor.phone} · ${debtor.textConsentAt ? "you may text them" : "no consent to text"}`}
            </span>
          )}
          <span className="text-xs text-muted">
            Reminders go here and greet this person; change it with Edit debtor.
          </span>
        </li>
        {contacts.map((contact) =>
          editing === contact.id ? (
            <li key={contact.id} className="py-2">
              <Suspense fallback={<p className="text-sm text-muted">Loading…</p>}>
                <ContactForm
                  debtorId={debtor.id}
                  contact={contact}
                  onResult={(data) => {
                    onResult(data);
                    if (data.ok) setEditing(null);
                  }}
                  onCancel={() => setEditing(null)}
                />
              </Suspense>
            </li>
          ) : (
            <ContactItem key={contact.id} contact={contact} onEdit={() => setEditing(contact.id)} onResult={onResult} />
          ),
        )}
      </ul>
      {full && (
        <p className="text-sm text-muted">{`This debtor has ${MAX_OTHER_CONTACTS + 1} contacts, the most it can have. Remove one to add another.`}</p>
      )}
      {adding && (
        <Suspense fallback={<p className="text-sm text-muted">Loading…</p>}>
          <ContactForm
            debtorId={debtor.id}
            onResult={(data) => {
              onResult(data);
              if (data.ok) setAdding(false);
            }}
            onCancel={() => setAdding(false)}
          />
        </Suspense>
      )}
    </section>
  );
}

function ContactItem({
  contact,
  onEdit,
  onResult,
}: {
  contact: ContactRow;
  onEdit: () => void;
  onResult: (data: ActionResult) => void;
}) {
  const fetcher = useFetcher<typeof debtorAction>();
  useFormResult(fetcher, [CONTACT_INTENTS.remove], onResult);
  const state = contactState(contact);
  return (
    <li className="flex flex-wrap items-start justify-between gap-2 py-2">
      <div className="flex min-w-0 flex-col gap-1">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-medium break-words">{contact.name}</span>
          <Badge tone={STATE_TONE[state]}>{CONTACT_STATE_LABELS[state]}</Badge>
        </div>
        <span className="text-sm text-muted [overflow-wrap:anywhere]">
          {contact.role ? `${contact.email} · ${contact.role}` : contact.email}
        </span>
        {state === "bouncing" && contact.bounceError && (
          <span className="text-xs text-muted break-words">{`No copies go here: ${contact.bounceError} Change the address to try again.`}</span>
        )}
        {state === "opted-out" && (
          <span className="text-xs text-muted">This address asked for no more e-mails: no copies go here.</span>
        )}
      </div>
      <div className="flex gap-2">
        <Button type="button" variant="outline" size="sm" onClick={onEdit}>
          Edit<span className="sr-only">{` ${contact.name}`}</span>
        </Button>
        <fetcher.Form method="post">
          <input type="hidden" name="intent" value={CONTACT_INTENTS.remove} />
          <input type="hidden" name="id" value={contact.id} />
          <SubmitButton busy={fetcher.state !== "idle"} variant="outline" size="sm">
            Remove<span className="sr-only">{` ${contact.name}`}</span>
          </SubmitButton>
        </fetcher.Form>
      </div>
    </li>
  );
}
