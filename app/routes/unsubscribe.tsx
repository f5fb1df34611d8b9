import { useId } from "react";
import { data, Form, useNavigation } from "react-router";
import { withDebtorLink } from "~/actions/debtor-link.server";
import { sendNoticesAfter } from "~/activity/index.server";
import { DebtorBrandFrame } from "~/components/debtor-brand";
import { richText } from "~/components/debtor-copy";
import { DEBTOR_LINK_HEADERS, DebtorLinkSteps, debtorLinkMeta } from "~/components/debtor-link-page";
import { RouteError } from "~/components/route-error";
import { SubmitButton } from "~/components/ui/button";
import { FieldError, Label } from "~/components/ui/input";
import { inputClass } from "~/components/ui/variants";
import type { Db } from "~/db/client.server";
import type { MessageBrand } from "~/domain/brand";
import { DEBTOR_LINK_COPY, type DebtorLinkKey } from "~/domain/i18n/debtor-link";
import { OPT_OUT_COPY, type OptOutKey } from "~/domain/i18n/opt-out";
import { CONTACT_MESSAGE_MAX } from "~/domain/inbound-mail";
import { maskEmail } from "~/domain/mask-email";
import { englishCopy, type PageCopy, type PageMessage, pageCopy, say, translate } from "~/domain/page-copy";
import { type OptOutTarget, verifyOptOutToken } from "~/links/index.server";
import { readForm } from "~/platform/action-result.server";
import {
  askForContact,
  copiedContacts,
  isOptedOut,
  type OwedTotal,
  optOutAddress,
  optOutCopies,
  owedTotalsOf,
  owedTotalsQuery,
} from "~/responses/index.server";
import type { PageHandle } from "~/ui/should-hydrate";
import type { Route } from "./+types/unsubscribe";

/**
 * The opt-out link of every reminder: /u/<signed token>, no session needed.
 * GET only asks (mail scanners open links); a POST opts the address out of the sender's reminders:
 * the page's button, or the RFC 8058 one-click POST a mail client sends from List-Unsubscribe-Post
 * without cookies and with any Origin or none (workers/app.ts exempts /u/ from the Origin check and
 * drops the Origin of that POST before React Router's own check; the token authenticates). A repeated POST changes nothing more. The page names the sender as the reminders
 * did (the organization when sent as one) and what is still owed, never the full address; an
 * invalid token answers 404 with nothing about why.
 */

// The token is in the URL: never leak it through Referer, never cache or index the page.
export function headers() {
  return DEBTOR_LINK_HEADERS;
}

/** The user's page, not Dunly's: their brand instead of Dunly's header (docs/decisions/058). */
export const handle = { debtorPage: true } satisfies PageHandle;
type Copy = PageCopy<OptOutKey | DebtorLinkKey>;

type View = {
  state: "confirm" | "done";
  /** The page's words in the debtor's language (only that one reaches the browser). */
  copy: Copy;
  sender: string;
  address: string;
  owed: OwedTotal[];
  brand: MessageBrand;
  /** The debtor's other contacts copied on these reminders (decisions/057): each can stop only its copies. */
  copies: { id: number; address: string }[];
  /** The address whose copies were just stopped (masked). */
  copyStopped?: string;
  /** The other choice: "contact me another way" was sent (reminders wait for the sender). */
  contacted?: boolean;
  contact?: { error?: PageMessage<OptOutKey>; message?: string };
};
type Invalid = { state: "invalid"; copy: Copy };

const CONTACT_INTENT = "contact";
const STOP_COPY_INTENT = "stop-copy";
const CONTACT_EMPTY: PageMessage<OptOutKey> = { key: "optOut.contact.empty" };
const CONTACT_LONG: PageMessage<OptOutKey> = { key: "optOut.contact.long", values: { max: CONTACT_MESSAGE_MAX } };
const CONTACT_CAP: PageMessage<OptOutKey> = { key: "optOut.contact.cap" };
/** A link that is not valid names no debtor: English. */
const INVALID = { copy: englishCopy(OPT_OUT_COPY, DEBTOR_LINK_COPY) };

async function shown(db: Db, target: OptOutTarget, done?: "done") {
  const [optedOut, owed, copies] = await Promise.all([
    done ? true : isOptedOut(db, target.ownerId, target.email),
    owedTotalsQuery(db, target.ownerId, target.debtorId),
    copiedContacts(db, target.ownerId, target.debtorId),
  ]);
  return data<View>({
    // Already opted out: say so instead of asking again.
    state: optedOut ? "done" : "confirm",
    copy: pageCopy(target.language, target.locale, OPT_OUT_COPY, DEBTOR_LINK_COPY),
    sender: target.senderName,
    brand: target.brand,
    address: maskEmail(target.email),
    owed: owedTotalsOf(owed),
    copies: copies.map((c) => ({ id: c.id, address: maskEmail(c.email) })),
  });
}

export function loader({ params, context }: Route.LoaderArgs) {
  return withDebtorLink(context, params.token, verifyOptOutToken, ({ db, target }) => shown(db, target), INVALID);
}

export function action({ params, context, request }: Route.ActionArgs) {
  return withDebtorLink(
    context,
    params.token,
    verifyOptOutToken,
    async ({ env, config, ctx, db, target }) => {
      const form = await readForm(request);
      const formData = "refused" in form ? new FormData() : form.formData;
      // The other choice: keep in touch another way (a mail client's one-click POST never sends it).
      if (formData.get("intent") === CONTACT_INTENT) {
        const message = String(formData.get("message") ?? "")
          .replace(/\r\n?/g, "\n")
          .trim();
        const refuse = async (error: PageMessage<OptOutKey>) => {
          const page = await shown(db, target);
          return data<View>({ ...page.data, contact: { error, message } }, { status: 400 });
        };
        if (!message) return refuse(CONTACT_EMPTY);
        if (message.length > CONTACT_MESSAGE_MAX) return refuse(CONTACT_LONG);
        const asked = await askForContact(env, config, target, message);
        if (!asked.ok) return refuse(CONTACT_CAP);
        const page = await shown(db, target);
        return data<View>({ ...page.data, contacted: true });
      }
      // The other choice: only the copies to one of the debtor's other contacts stop; the reminders to
      // the debtor's own address go on (decisions/057). The id is only a request: one of this debtor's.
      if (formData.get("intent") === STOP_COPY_INTENT) {
        const id = Number(formData.get("contact"));
        const contact = (await copiedContacts(db, target.ownerId, target.debtorId)).find((c) => c.id === id);
        if (contact) {
          const { debtorIds } = await optOutCopies({ env, db }, target.ownerId, contact.email);
          if (debtorIds.length > 0) sendNoticesAfter(ctx, env, db, config, target.ownerId);
        }
        const page = await shown(db, target);
        return data<View>({ ...page.data, ...(contact ? { copyStopped: maskEmail(contact.email) } : {}) });
      }
      // Every schedule to this address for this user is completed in D1 first, so the engine drops an
      // alarm that fires anyway; disarming saves it the wake-up.
      const { debtorIds } = await optOutAddress({ env, db }, target.ownerId, target.email);
      // The user is told.
      if (debtorIds.length > 0) sendNoticesAfter(ctx, env, db, config, target.ownerId);
      return shown(db, target, "done");
    },
    INVALID,
  );
}

/**
 * "Stop only the copies to …": one button per other contact copied on these reminders; the
 * reminders to the debtor's own address go on (decisions/057).
 */
function CopiesForm({ view }: { view: View }) {
  const id = useId();
  const busy = useNavigation().formData?.get("intent") === STOP_COPY_INTENT;
  const t = translate(view.copy);
  if (view.copies.length === 0 && !view.copyStopped) return null;
  return (
    <section aria-labelledby={`${id}-title`} className="mb-8 flex w-full flex-col gap-3 text-left">
      <h2 id={`${id}-title`} className="text-lg font-semibold">
        {t("optOut.copies.heading")}
      </h2>
      {view.copyStopped && (
        <p role="status" className="break-words rounded-md border border-success px-4 py-3">
          {t("optOut.copies.stopped", { copy: view.copyStopped, address: view.address })}
        </p>
      )}
      {view.copies.length > 0 && (
        <>
          <p className="text-sm text-muted">{t("optOut.copies.intro", { address: view.address })}</p>
          <ul className="flex flex-col gap-2">
            {view.copies.map((copy) => (
              <li key={copy.id}>
                <Form method="post" className="flex flex-wrap items-center justify-between gap-2">
                  <input type="hidden" name="intent" value={STOP_COPY_INTENT} />
                  <input type="hidden" name="contact" value={copy.id} />
                  <span className="[overflow-wrap:anywhere]">{copy.address}</span>
                  <SubmitButton busy={busy} variant="outline" size="sm">
                    <span>
                      {t("optOut.copies.button")}
                      <span className="sr-only">{` ${t("optOut.copies.to", { address: copy.address })}`}</span>
                    </span>
                  </SubmitButton>
                </Form>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

/** "Contact me another way": the choice beside stopping every reminder. */
function ContactForm({ view }: { view: View }) {
  const id = useId();
  const busy = useNavigation().formData?.get("intent") === CONTACT_INTENT;
  const t = translate(view.copy);
  if (view.contacted) {
    return (
      <p role="status" className="break-words rounded-md border border-success px-4 py-3">
        {t("optOut.contact.thanks", { sender: view.sender })}
      </p>
    );
  }
  const error = say(t, view.contact?.error);
  return (
    <section aria-labelledby={`${id}-title`} className="flex w-full flex-col gap-3 text-left">
      <h2 id={`${id}-title`} className="text-lg font-semibold">
        {t("optOut.contact.heading")}
      </h2>
      <p className="text-sm text-muted">{t("optOut.contact.intro", { sender: view.sender })}</p>
      <Form method="post" className="flex flex-col gap-3">
        <input type="hidden" name="intent" value={CONTACT_INTENT} />
        <div>
          <Label htmlFor={`${id}-message`}>{t("optOut.contact.label")}</Label>
          <textarea
            id={`${id}-message`}
            name="message"
            rows={4}
            required
            maxLength={CONTACT_MESSAGE_MAX}
            defaultValue={view.contact?.message}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            className={`${inputClass} mt-1 h-auto py-2`}
          />
          <FieldError id={`${id}-error`} errors={error ? [error] : undefined} />
        </div>
        <SubmitButton busy={busy} variant="outline" className="self-start">
          {t("optOut.contact.submit")}
        </SubmitButton>
      </Form>
    </section>
  );
}

export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const view = (actionData ?? loaderData) as Invalid | View;
  const t = translate(view.copy);
  return (
    <DebtorBrandFrame
      brand={view.state === "invalid" ? null : view.brand}
      lightTheme={translate(view.copy)("link.lightTheme")}
    >
      <DebtorLinkSteps<View>
        view={view}
        copy={view.copy}
        title={t("optOut.title")}
        doneTitle={t("optOut.doneTitle")}
        done={(view) => richText(t, "optOut.done", {}, { sender: <strong>{view.sender}</strong> })}
        question={(view) =>
          richText(
            t,
            "optOut.question",
            { sender: view.sender },
            { address: <span className="[overflow-wrap:anywhere]">{view.address}</span> },
          )
        }
        explanation={
          view.state === "confirm" && view.copies.length > 0 ? t("optOut.explanationCopies") : t("optOut.explanation")
        }
        button={view.state === "confirm" && view.copies.length > 0 ? t("optOut.buttonAll") : t("optOut.button")}
      />
      {view.state === "confirm" && (
        <div className="mx-auto -mt-8 flex max-w-md flex-col items-center px-4 pb-16">
          <CopiesForm view={view} />
          <ContactForm view={view} />
        </div>
      )}
    </DebtorBrandFrame>
  );
}

export function ErrorBoundary() {
  return <RouteError message="We couldn't load the page to stop these reminders." />;
}

export const meta: Route.MetaFunction = ({ loaderData }) => {
  const data = loaderData as Invalid | View | undefined;
  const copy = data?.copy;
  return debtorLinkMeta(
    copy ? translate(copy)("optOut.title") : "Stop reminders",
    data && "sender" in data ? data.sender : null,
  );
};
