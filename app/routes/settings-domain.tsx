import { getFormProps } from "@conform-to/react";
import { parseWithValibot } from "@conform-to/valibot";
import { useFetcher } from "react-router";
import { addSendingDomain, checkSendingDomain, removeSendingDomain, sendingDomainOf } from "~/account/index.server";
import { getApp } from "~/auth/context.server";
import { requireUser } from "~/auth/guard.server";
import { CopyButton } from "~/components/copy-button";
import { RouteError } from "~/components/route-error";
import { SettingsTabs } from "~/components/settings/settings-tabs";
import { Badge } from "~/components/ui/badge";
import { Button, SubmitButton } from "~/components/ui/button";
import { InputField } from "~/components/ui/field";
import { FormStatus } from "~/components/ui/form-status";
import { getDb } from "~/db/client.server";
import { formatDateTime } from "~/domain/dates";
import { safeDisplayName } from "~/domain/header-safe";
import { senderDisplayName } from "~/domain/sender";
import { domainAddress, type SendingDomainStatus } from "~/domain/sending-domain";
import { mail } from "~/mail/index.server";
import { intentOf, readForm, reply } from "~/platform/action-result.server";
import { requestNumberLocale } from "~/platform/locale.server";
import { requestTimeZone } from "~/platform/time-zone.server";
import { SOMETHING_WRONG } from "~/schemas/messages";
import { LOCAL_PART_DEFAULT, SendingDomainSchema } from "~/schemas/sending-domain";
import { pageMeta } from "~/ui/site";
import { useFormResult } from "~/ui/use-form-result";
import { useValibotForm } from "~/ui/use-valibot-form";
import type { Route } from "./+types/settings-domain";

const INTENTS = { add: "domain-add", check: "domain-check", remove: "domain-remove" } as const;

/**
 * Settings → Sending domain (docs/decisions/059-sending-domains.md): the user's own domain, the DNS
 * records Resend asks for, where verification stands, and which address mail goes from right now.
 */
export async function loader({ context, url, request }: Route.LoaderArgs) {
  const user = await requireUser(context, url);
  const { env, config } = getApp(context);
  const [domain, dunly] = await Promise.all([sendingDomainOf(getDb(env.DB), user.id), mail.defaultFromAddress(env)]);
  const zone = requestTimeZone(request);
  const locale = requestNumberLocale(request, user);
  const verified = domain?.status === "verified";
  return {
    senderName: safeDisplayName(senderDisplayName(user)) || user.email,
    // Dunly's own address; null when the mail Worker could not say (the page says "Dunly's address").
    dunlyAddress: dunly.ok ? dunly.address : null,
    fromAddress: verified && domain ? domainAddress(domain.localPart, domain.name) : null,
    domain: domain
      ? {
          ...domain,
          address: domainAddress(domain.localPart, domain.name),
          checked: domain.checkedAt ? formatDateTime(domain.checkedAt, zone, locale) : null,
          verifiedSince: domain.verifiedAt ? formatDateTime(domain.verifiedAt, zone, locale) : null,
        }
      : null,
    // The clickable stand-in of Resend's Domains API answers in development and test (never in production).
    standIn: config.APP_ENV !== "production",
  };
}

export async function action({ context, request, url }: Route.ActionArgs) {
  const user = await requireUser(context, url);
  const form = await readForm(request);
  if ("refused" in form) return form.refused;
  const { formData } = form;
  const { env, config } = getApp(context);
  const db = getDb(env.DB);
  const intent = intentOf(formData);
  if (intent === INTENTS.add) {
    const submission = parseWithValibot(formData, { schema: SendingDomainSchema });
    if (submission.status !== "success") return reply(intent, { status: 400, result: submission.reply() });
    const outcome = await addSendingDomain(env, db, config, user.id, submission.value);
    if (outcome.ok) {
      return reply(intent, {
        message: `${outcome.domain.name} added: publish the DNS records below, then choose "Check verification".`,
        result: submission.reply({ resetForm: true }),
      });
    }
    if (outcome.field) {
      return reply(intent, {
        status: 400,
        result: submission.reply({ fieldErrors: { [outcome.field]: [outcome.message] } }),
      });
    }
    return reply(intent, { status: outcome.status, message: outcome.message, result: submission.reply() });
  }
  if (intent === INTENTS.check) {
    const outcome = await checkSendingDomain(env, db, config, user.id);
    if (!outcome.ok) {
      if (outcome.notFound) return reply(intent, { status: 404, message: "You have no sending domain." });
      return reply(intent, { status: 502, message: outcome.message });
    }
    return reply(intent, { message: CHECKED[outcome.domain.status](outcome.domain.name) });
  }
  if (intent === INTENTS.remove) {
    const outcome = await removeSendingDomain(env, db, user.id);
    if (!outcome.ok) {
      if ("notFound" in outcome) return reply(intent, { status: 404, message: "You have no sending domain." });
      return reply(intent, { status: 502, message: outcome.message });
    }
    return reply(intent, { message: `${outcome.name} removed: your e-mails go from Dunly's address again.` });
  }
  return reply(intent, { status: 400, message: SOMETHING_WRONG });
}

/** What "Check verification" answers, by the status Resend gave. */
const CHECKED: Record<SendingDomainStatus, (name: string) => string> = {
  verified: (name) => `${name} is verified: your e-mails go from it now.`,
  pending: (name) =>
    `${name} is not verified yet: Resend is still looking for the records. This can take up to a few hours after you publish them.`,
  not_started: (name) => `${name} is not verified yet: publish the records below, then check again.`,
  failed: (name) =>
    `${name} failed verification: Resend could not find every record. Your e-mails go from Dunly's address until it is verified.`,
  removed: (name) => `Resend no longer has ${name}: remove it here and add it again.`,
};

/** The status as a badge and a sentence saying what it means and what to do. */
const STATUS: Record<SendingDomainStatus, { label: string; tone: "good" | "neutral" | "warn" | "bad"; todo: string }> =
  {
    not_started: {
      label: "Not verified yet",
      tone: "neutral",
      todo: 'Add each record below at your DNS provider (where your domain\'s DNS is managed), then choose "Check verification".',
    },
    pending: {
      label: "Not verified yet",
      tone: "warn",
      todo: 'Resend is looking for the records below. Publishing them can take from minutes to a few hours to be seen; Dunly checks again by itself, or choose "Check verification".',
    },
    verified: {
      label: "Verified",
      tone: "good",
      todo: "Keep these records published: if one is taken down, Dunly switches back to its own address and tells you.",
    },
    failed: {
      label: "Failed",
      tone: "bad",
      todo: 'Resend could not find every record. Compare each one below with what your DNS provider shows (the name, the type and the whole value), correct it, then choose "Check verification".',
    },
    removed: {
      label: "Removed at Resend",
      tone: "bad",
      todo: "Resend no longer has this domain. Remove it here, then add it again to get new records.",
    },
  };

type LoaderDomain = NonNullable<Route.ComponentProps["loaderData"]["domain"]>;

function RecordsTable({ domain }: { domain: LoaderDomain }) {
  // Names as a DNS provider's form takes them: relative to the domain ("send", "resend._domainkey").
  return (
    <table className="mt-4 w-full table-fixed border-collapse text-sm" data-testid="dns-records">
      <caption className="sr-only">{`DNS records for ${domain.name}`}</caption>
      <thead>
        <tr className="border-b border-border text-left text-muted">
          <th scope="col" className="w-[22%] py-2 pr-2 font-medium">
            Type
          </th>
          <th scope="col" className="w-[28%] py-2 pr-2 font-medium">
            Name
          </th>
          <th scope="col" className="py-2 pr-2 font-medium">
            Value
          </th>
        </tr>
      </thead>
      <tbody>
        {domain.records.map((r) => {
          // Told apart by type and name (Resend's DKIM can be three CNAMEs).
          const what = `${r.record} ${r.type} record at ${r.name}`;
          return (
            <tr
              key={`${r.record}-${r.type}-${r.name}-${r.value}`}
              className="border-b border-border align-top"
              data-testid="dns-record"
            >
              <td className="py-2 pr-2">
                <span className="font-mono font-semibold">{r.type}</span>
                <span className="block text-xs text-muted">{r.record}</span>
                {r.priority !== null && <span className="block text-xs text-muted">{`Priority ${r.priority}`}</span>}
                <span className="mt-1 block">
                  <Badge tone={r.status === "verified" ? "good" : r.status === "failed" ? "bad" : "neutral"}>
                    {r.status === "verified" ? "Found" : r.status === "failed" ? "Not found" : "Not checked"}
                  </Badge>
                </span>
              </td>
              <td className="py-2 pr-2">
                <code className="block break-all font-mono">{r.name}</code>
                <span className="mt-1 block">
                  <CopyButton value={r.name} label={`the name of the ${what}`} />
                </span>
              </td>
              <td className="py-2 pr-2">
                <code className="block break-all font-mono" data-testid="dns-value">
                  {r.value}
                </code>
                <span className="mt-1 block">
                  <CopyButton value={r.value} label={`the value of the ${what}`} />
                </span>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** "Check verification" and "Remove domain", each with its own fetcher and answer. */
function DomainActions({ name }: { name: string }) {
  const check = useFetcher<typeof action>();
  const remove = useFetcher<typeof action>();
  const checked = useFormResult(check, [INTENTS.check]);
  const removed = useFormResult(remove, [INTENTS.remove]);
  const busy = check.state !== "idle" || remove.state !== "idle";
  const answer = check.state === "idle" && checked ? checked : remove.state === "idle" ? removed : null;
  return (
    <div className="mt-4 flex flex-col gap-2">
      <div className="flex flex-wrap gap-2">
        <check.Form method="post">
          <input type="hidden" name="intent" value={INTENTS.check} />
          <SubmitButton busy={check.state !== "idle"} disabled={busy}>
            Check verification
          </SubmitButton>
        </check.Form>
        <remove.Form method="post">
          <input type="hidden" name="intent" value={INTENTS.remove} />
          <Button type="submit" variant="outline" disabled={busy} aria-label={`Remove domain ${name}`}>
            Remove domain
          </Button>
        </remove.Form>
      </div>
      <p
        role="status"
        aria-live="polite"
        className={answer && !answer.ok ? "text-sm text-danger" : "text-sm text-success"}
        data-testid="domain-answer"
      >
        {answer?.message ?? null}
      </p>
    </div>
  );
}

function AddDomainForm() {
  const fetcher = useFetcher<typeof action>();
  const busy = fetcher.state !== "idle";
  const result = useFormResult(fetcher, [INTENTS.add]);
  const [form, fields] = useValibotForm(SendingDomainSchema, {
    id: "sending-domain",
    lastResult: busy ? undefined : result?.result,
    defaultValue: { domain: "", local_part: LOCAL_PART_DEFAULT },
  });
  return (
    <fetcher.Form method="post" {...getFormProps(form)} className="mt-4 flex max-w-xl flex-col gap-4">
      <input type="hidden" name="intent" value={INTENTS.add} />
      <InputField
        meta={fields.domain}
        type="text"
        label="Your domain"
        placeholder="example.com"
        autoComplete="off"
        spellCheck={false}
        autoCapitalize="none"
        describedBy="domain-help"
      />
      <p id="domain-help" className="-mt-2 text-xs text-muted">
        The domain of your business's e-mail, as in example.com. A subdomain such as mail.example.com works too.
      </p>
      <InputField
        meta={fields.local_part}
        type="text"
        label="Send as (the name before the @)"
        autoComplete="off"
        spellCheck={false}
        autoCapitalize="none"
        describedBy="local-help"
      />
      <p id="local-help" className="-mt-2 text-xs text-muted">
        “billing” sends as billing@your domain. Replies still come to Dunly and to you, as now.
      </p>
      <FormStatus result={result} busy={busy} formStatus={form.status} />
      <SubmitButton busy={busy} className="self-start">
        Add domain
      </SubmitButton>
    </fetcher.Form>
  );
}

export default function SettingsDomain({ loaderData }: Route.ComponentProps) {
  const { senderName, dunlyAddress, fromAddress, domain, standIn } = loaderData;
  const status = domain ? STATUS[domain.status] : null;
  return (
    <SettingsTabs current="domain">
      <section aria-labelledby="domain-title" className="rounded-xl border border-border bg-surface p-6">
        <h2 id="domain-title" className="text-xl font-semibold">
          Sending domain
        </h2>
        <p className="mt-1 text-sm text-muted">
          Send your reminders, receipts and answers to debtors from your own domain. Until it is verified they go from
          Dunly's address with your name.
        </p>
        <div className="mt-4 rounded-lg border border-border p-4" data-testid="sending-from">
          <p className="text-sm text-muted">Your e-mails to debtors go from</p>
          <p className="mt-1 break-words font-mono text-sm font-semibold">
            {`${senderName} <${fromAddress ?? dunlyAddress ?? "Dunly's address"}>`}
          </p>
          <p className="mt-1 text-xs text-muted">
            {fromAddress
              ? "Your own domain, verified."
              : domain
                ? "Dunly's address, until your domain is verified."
                : "Dunly's address. The name is your business's (or the organization's a reminder is sent as)."}
          </p>
        </div>
      </section>

      {domain && status ? (
        <section aria-labelledby="domain-status-title" className="rounded-xl border border-border bg-surface p-6">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h2 id="domain-status-title" className="break-all text-xl font-semibold">
              {domain.name}
            </h2>
            <span data-testid="domain-status">
              <Badge tone={status.tone}>{status.label}</Badge>
            </span>
          </div>
          <dl className="mt-2 grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[10rem_1fr]">
            <dt className="text-muted">Sends as</dt>
            <dd className="break-all font-mono">{domain.address}</dd>
            <dt className="text-muted">Last checked</dt>
            <dd>{domain.checked ?? "Not yet"}</dd>
            {domain.status === "verified" && domain.verifiedSince && (
              <>
                <dt className="text-muted">Verified since</dt>
                <dd>{domain.verifiedSince}</dd>
              </>
            )}
          </dl>
          <p className="mt-3 text-sm">{status.todo}</p>
          {domain.records.length > 0 && <RecordsTable domain={domain} />}
          <DomainActions name={domain.name} />
          {standIn && (
            <p className="mt-4 text-xs text-muted">
              Development: Resend is stood in for locally. Verify or fail this domain on{" "}
              <a href="/dev/resend/domains" className="text-primary underline">
                the stand-in's page
              </a>
              .
            </p>
          )}
        </section>
      ) : (
        <section aria-labelledby="domain-form-title" className="rounded-xl border border-border bg-surface p-6">
          <h2 id="domain-form-title" className="text-xl font-semibold">
            Add your domain
          </h2>
          <p className="mt-1 text-sm text-muted">
            Dunly registers it with Resend, its e-mail provider, and shows the DNS records to add where your domain is
            managed. One domain per account.
          </p>
          <AddDomainForm />
        </section>
      )}
    </SettingsTabs>
  );
}

export function ErrorBoundary() {
  return <RouteError message="We couldn't load your sending domain." />;
}

export const meta: Route.MetaFunction = () => pageMeta("Sending domain");
