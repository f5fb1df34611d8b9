import { data, useNavigation } from "react-router";
import { withDebtorLink } from "~/actions/debtor-link.server";
import { noticeSwitchQuery, sendNoticesAfter } from "~/activity/index.server";
import { DebtorBrandFrame } from "~/components/debtor-brand";
import {
  DEBTOR_LINK_HEADERS,
  DebtorLinkPage,
  debtorLinkMeta,
  InvalidDebtorLink,
  OwedAmount,
} from "~/components/debtor-link-page";
import { claimSaidWords, PaidClaimForm } from "~/components/portal/paid-claim-form";
import { RouteError } from "~/components/route-error";
import type { Db } from "~/db/client.server";
import type { MessageBrand } from "~/domain/brand";
import { DEBTOR_LINK_COPY, type DebtorLinkKey } from "~/domain/i18n/debtor-link";
import { PAID_CLAIM_COPY, type PaidClaimKey } from "~/domain/i18n/paid-claim";
import { englishCopy, type PageCopy, pageCopy, translate } from "~/domain/page-copy";
import { localDateString } from "~/domain/schedule-time";
import { safeTimeZone } from "~/domain/time-zone";
import type { OptOutTarget } from "~/links/index.server";
import { invoiceRefs, verifyPaidClaimToken } from "~/links/index.server";
import { readForm } from "~/platform/action-result.server";
import type { AppConfig } from "~/platform/config.server";
import {
  claimFormOf,
  claimPaid,
  claimSaidOf,
  type OwedTotal,
  owedTotalsFrom,
  portalState,
} from "~/responses/index.server";
import {
  type ClaimField,
  type ClaimFormView,
  type ClaimMessage,
  type ClaimSaid,
  type ClaimValues,
  readPaidClaim,
} from "~/schemas/paid-claim";
import type { PageHandle } from "~/ui/should-hydrate";
import type { Route } from "./+types/paid-claim";

/**
 * The "I've paid" link of every reminder: /p/<signed token>, no session needed.
 * GET only shows the form (mail scanners open links); the debtor says which invoices they paid (or
 * the amount), when, and their bank reference, and the POST (same origin, so the Origin check
 * passes) records the claim: those invoices leave reminders until the user has checked, and the
 * user is told on their dashboard. A repeated POST changes nothing more. The page names the sender
 * as the reminders did and shows what is still owed; an invalid token (also an opt-out or portal
 * token) answers 404 with nothing about why. Written in the debtor's language (debtorLanguage).
 */

// The token is in the URL: never leak it through Referer, never cache or index the page.
export function headers() {
  return DEBTOR_LINK_HEADERS;
}

/** The user's page, not Dunly's: their brand instead of Dunly's header (docs/decisions/058). */
export const handle = { debtorPage: true } satisfies PageHandle;
type Copy = PageCopy<PaidClaimKey | DebtorLinkKey>;

type View = {
  state: "ask" | "told";
  /** The page's words in the debtor's language (only that one reaches the browser). */
  copy: Copy;
  sender: string;
  brand: MessageBrand;
  owed: OwedTotal[];
  // Whether the user gets an e-mail of it (their Settings switch), so the page says only what is true.
  emailed: boolean;
  form: ClaimFormView;
  said: ClaimSaid | null;
  errors?: Partial<Record<ClaimField, ClaimMessage>>;
  values?: Partial<ClaimValues>;
};
type Invalid = { state: "invalid"; copy: Copy };
type Answer = Invalid | View;

/** A link that is not valid names no debtor: English. */
const INVALID = { copy: englishCopy(PAID_CLAIM_COPY, DEBTOR_LINK_COPY) };

/** The debtor's state read for the page: the form's invoices, what is owed, a pending claim. */
async function read(db: Db, config: AppConfig, target: OptOutTarget, now: number) {
  const [state, owner] = await Promise.all([portalState(db, target), noticeSwitchQuery(db, target.ownerId)]);
  if (!state) return null;
  const today = localDateString(now, safeTimeZone(state.debtor.timeZone));
  const claim = await claimFormOf(await invoiceRefs(config, target.key), state, target.locale, today, target.locale);
  const view: View = {
    state: state.debtor.paidClaimedAt === null ? "ask" : "told",
    copy: pageCopy(target.language, target.locale, PAID_CLAIM_COPY, DEBTOR_LINK_COPY),
    sender: target.senderName,
    brand: target.brand,
    owed: owedTotalsFrom(state.invoices),
    emailed: owner[0]?.on ?? false,
    form: claim.view,
    said: claimSaidOf(state),
  };
  return { state, claim, today, view };
}

export function loader({ params, context }: Route.LoaderArgs) {
  return withDebtorLink(
    context,
    params.token,
    verifyPaidClaimToken,
    async ({ db, config, target }) => {
      const found = await read(db, config, target, Date.now());
      return found ? data<Answer>(found.view) : data<Answer>({ state: "invalid", ...INVALID }, { status: 404 });
    },
    INVALID,
  );
}

export function action({ params, context, request }: Route.ActionArgs) {
  return withDebtorLink(
    context,
    params.token,
    verifyPaidClaimToken,
    async ({ env, config, ctx, db, target }) => {
      const now = Date.now();
      // Amounts are read as the page writes them: in the debtor's locale.
      const locale = target.locale;
      const found = await read(db, config, target, now);
      if (!found) return data<Answer>({ state: "invalid", ...INVALID }, { status: 404 });
      if (found.view.state === "told") return data<Answer>(found.view);
      const body = await readForm(request);
      const form = "refused" in body ? new FormData() : body.formData;
      const claim = readPaidClaim(form, { open: found.claim.claimable, locale, today: found.today });
      if (!claim.ok)
        return data<Answer>({ ...found.view, errors: claim.errors, values: claim.values }, { status: 400 });
      // The invoices leave reminders in D1 first, so an alarm that fires anyway leaves them out.
      const { claimed } = await claimPaid({ env, db }, target.ownerId, target.debtorId, claim.claim, now);
      if (claimed) sendNoticesAfter(ctx, env, db, config, target.ownerId);
      const after = await read(db, config, target, now);
      return data<Answer>(after?.view ?? found.view);
    },
    INVALID,
  );
}

export default function PaidClaim({ loaderData, actionData }: Route.ComponentProps) {
  const view = (actionData ?? loaderData) as Answer;
  return (
    <DebtorBrandFrame
      brand={view.state === "invalid" ? null : view.brand}
      lightTheme={translate(view.copy)("link.lightTheme")}
    >
      <PaidClaimView view={view} />
    </DebtorBrandFrame>
  );
}

function PaidClaimView({ view }: { view: Answer }) {
  const busy = useNavigation().state !== "idle";
  const t = translate(view.copy);
  if (view.state === "invalid") {
    return (
      <DebtorLinkPage>
        <InvalidDebtorLink title={t("claim.title")} t={t} />
      </DebtorLinkPage>
    );
  }
  if (view.state === "told") {
    const what = view.said ? claimSaidWords(t, view.said, view.copy.locale) : t("claim.said.payment");
    return (
      <DebtorLinkPage>
        <h1 className="text-2xl font-bold">{t("claim.thanks")}</h1>
        <p role="status" className="break-words">
          {t(view.emailed ? "claim.toldEmailed" : "claim.toldInDunly", { sender: view.sender, what })}
        </p>
        <OwedAmount sender={view.sender} totals={view.owed} copy={view.copy} />
      </DebtorLinkPage>
    );
  }
  return (
    <div className="mx-auto flex w-full max-w-xl flex-col gap-5 px-4 py-10 sm:py-16">
      <h1 className="break-words text-2xl font-bold">{t("claim.heading", { sender: view.sender })}</h1>
      <OwedAmount sender={view.sender} totals={view.owed} copy={view.copy} />
      {view.form.invoices.length === 0 ? (
        <p>{t("claim.none")}</p>
      ) : (
        <>
          <p className="text-muted">{t("claim.intro")}</p>
          <PaidClaimForm
            view={view.form}
            t={t}
            busy={busy}
            errors={view.errors}
            values={view.values}
            submitLabel={t("claim.submit")}
          />
        </>
      )}
    </div>
  );
}

export function ErrorBoundary() {
  return <RouteError message="We couldn't load the page to tell us you've paid." />;
}

export const meta: Route.MetaFunction = ({ loaderData }) => {
  const data = loaderData as Answer | undefined;
  const copy = data?.copy;
  return debtorLinkMeta(
    copy ? translate(copy)("claim.title") : "I've paid",
    data && "sender" in data ? data.sender : null,
  );
};
