import { getFormProps, getInputProps, getTextareaProps } from "@conform-to/react";
import { parseWithValibot } from "@conform-to/valibot";
import { useRef, useState } from "react";
import { Link, useFetcher } from "react-router";
import { getBrand, ImageRejected, removeLogo, replaceLogo, saveBrand } from "~/account/index.server";
import { getApp } from "~/auth/context.server";
import { requireUser } from "~/auth/guard.server";
import { RouteError } from "~/components/route-error";
import { SettingsTabs } from "~/components/settings/settings-tabs";
import { Button, SubmitButton } from "~/components/ui/button";
import { FormField } from "~/components/ui/field";
import { FormStatus } from "~/components/ui/form-status";
import { FieldError, Label } from "~/components/ui/input";
import { inputClass } from "~/components/ui/variants";
import { getDb } from "~/db/client.server";
import {
  accentColours,
  contrastLabel,
  DEFAULT_ACCENT,
  logoPath,
  mayRemovePoweredBy,
  SIGNATURE_MAX,
  showsPoweredBy,
} from "~/domain/brand";
import { normalizeHex } from "~/domain/contrast";
import { IMAGE_TOO_LARGE, MAX_IMAGE_BYTES, UNSUPPORTED_IMAGE } from "~/domain/upload-limits";
import { intentOf, readForm, reply } from "~/platform/action-result.server";
import { BRAND_INTENTS, BrandSchema } from "~/schemas/brand";
import { SOMETHING_WRONG } from "~/schemas/messages";
import { pageMeta } from "~/ui/site";
import { useFormResult } from "~/ui/use-form-result";
import { useValibotForm } from "~/ui/use-valibot-form";
import type { Route } from "./+types/settings-brand";

/**
 * Settings → Brand (docs/decisions/058): the logo, accent colour and signature reminders, receipts
 * and the debtor's pages carry, and "Powered by Dunly" (only the top plan may remove it). The
 * business name is Settings → Info's (users.business_name): shown here with a link there.
 */
export async function loader({ context, url }: Route.LoaderArgs) {
  const user = await requireUser(context, url);
  const stored = await getBrand(getDb(getApp(context).env.DB), user.id);
  const now = Date.now();
  return {
    name: user.businessName || user.fullName || user.email,
    hasBusinessName: Boolean(user.businessName),
    logoUrl: stored.brandLogo ? logoPath(stored.brandLogo) : null,
    accent: stored.brandAccent,
    signature: stored.brandSignature ?? "",
    poweredBy: showsPoweredBy(stored.brandPoweredBy, user, now),
    mayRemovePoweredBy: mayRemovePoweredBy(user, now),
  };
}

export async function action({ context, request, url }: Route.ActionArgs) {
  const user = await requireUser(context, url);
  const { env, ctx } = getApp(context);
  const form = await readForm(request, {
    maxBytes: MAX_IMAGE_BYTES + 64 * 1024,
    tooLarge: { intent: BRAND_INTENTS.logo, message: IMAGE_TOO_LARGE },
  });
  if ("refused" in form) return form.refused;
  const { formData } = form;
  const intent = intentOf(formData);
  if (intent === BRAND_INTENTS.logo) {
    const file = formData.get("logo");
    if (!(file instanceof File) || file.size === 0) {
      return reply(intent, { status: 400, message: UNSUPPORTED_IMAGE });
    }
    try {
      await replaceLogo(env, ctx, user.id, await file.arrayBuffer());
    } catch (error) {
      if (error instanceof ImageRejected) return reply(intent, { status: 400, message: error.message });
      throw error;
    }
    return reply(intent, { message: "Logo saved: your reminders and statement pages show it." });
  }
  if (intent === BRAND_INTENTS.removeLogo) {
    const removed = await removeLogo(env, ctx, user.id);
    if (!removed) return reply(intent, { status: 404, message: "There is no logo to remove." });
    return reply(intent, { message: "Logo removed." });
  }
  if (intent === BRAND_INTENTS.save) {
    const submission = parseWithValibot(withPickedAccent(formData), { schema: BrandSchema });
    if (submission.status !== "success") return reply(intent, { status: 400, result: submission.reply() });
    const saved = await saveBrand(getDb(env.DB), user.id, user, {
      accent: submission.value.accent && submission.value.accent !== DEFAULT_ACCENT ? submission.value.accent : null,
      signature: submission.value.signature || null,
      poweredBy: submission.value.powered_by === "on",
    });
    if (!saved.ok) {
      return reply(intent, {
        status: 403,
        result: submission.reply({ fieldErrors: { [saved.field]: [saved.message] } }),
      });
    }
    return reply(intent, { message: "Brand saved.", result: submission.reply() });
  }
  return reply(intent, { status: 400, message: SOMETHING_WRONG });
}

/**
 * Without JavaScript the colour picker and the text field are two fields: the text wins unless only
 * the picker was changed (the text is still what the page showed, `accent_was`).
 */
function withPickedAccent(formData: FormData): FormData {
  const text = String(formData.get("accent") ?? "");
  const was = String(formData.get("accent_was") ?? "");
  const picked = normalizeHex(String(formData.get("accent_picker") ?? ""));
  if (picked && normalizeHex(text) === normalizeHex(was) && picked !== normalizeHex(was)) {
    formData.set("accent", picked);
  }
  return formData;
}

const ACCEPTED = ["image/jpeg", "image/png", "image/webp"];

function LogoForm({ logoUrl, name }: { logoUrl: string | null; name: string }) {
  const upload = useFetcher<typeof action>();
  const remove = useFetcher<typeof action>();
  const uploadResult = useFormResult(upload, [BRAND_INTENTS.logo]);
  const removeResult = useFormResult(remove, [BRAND_INTENTS.removeLogo]);
  const [clientError, setClientError] = useState<string | null>(null);
  const busy = upload.state !== "idle" || remove.state !== "idle";
  const result = upload.state === "idle" && remove.state === "idle" ? (clientError ?? null) : null;
  const shown = result
    ? { ok: false, message: result }
    : (uploadResult ?? removeResult)
      ? { ok: (uploadResult ?? removeResult)?.ok, message: (uploadResult ?? removeResult)?.message }
      : null;
  return (
    <section aria-labelledby="logo-title" className="rounded-xl border border-border bg-surface p-6">
      <h2 id="logo-title" className="text-xl font-semibold">
        Logo
      </h2>
      <p className="mt-1 text-sm text-muted">
        Shown at the top of your reminders and receipts and on your debtors' statement pages. JPEG, PNG or WebP, at most
        5 MB; a wide logo on a transparent or white background reads best.
      </p>
      <div className="mt-4 flex flex-wrap items-center gap-4">
        <div className="flex h-16 min-w-16 max-w-60 items-center justify-center rounded-md border border-border bg-white p-2">
          {logoUrl ? (
            <img
              src={logoUrl}
              alt={`${name} logo`}
              className="max-h-12 max-w-56 object-contain"
              data-testid="brand-logo"
            />
          ) : (
            <span className="text-sm text-neutral-700">No logo</span>
          )}
        </div>
        <upload.Form
          method="post"
          encType="multipart/form-data"
          className="flex flex-wrap items-end gap-2"
          onSubmit={(event) => {
            const file = (event.currentTarget.elements.namedItem("logo") as HTMLInputElement | null)?.files?.[0];
            // A quick check here; the server checks the file's bytes, whatever its name.
            const problem = !file
              ? UNSUPPORTED_IMAGE
              : file.type && !ACCEPTED.includes(file.type)
                ? UNSUPPORTED_IMAGE
                : file.size > MAX_IMAGE_BYTES
                  ? IMAGE_TOO_LARGE
                  : null;
            setClientError(problem);
            if (problem) event.preventDefault();
          }}
        >
          <input type="hidden" name="intent" value={BRAND_INTENTS.logo} />
          <div>
            <Label htmlFor="brand-logo-file">{logoUrl ? "Replace the logo" : "Choose a logo"}</Label>
            <input
              id="brand-logo-file"
              type="file"
              name="logo"
              accept={ACCEPTED.join(",")}
              required
              className="mt-1 block max-w-full text-sm file:mr-2 file:rounded-md file:border file:border-border file:bg-surface-2 file:px-3 file:py-1.5 file:text-foreground"
            />
          </div>
          <SubmitButton busy={upload.state !== "idle"} disabled={busy}>
            Upload logo
          </SubmitButton>
        </upload.Form>
        {logoUrl && (
          <remove.Form method="post">
            <input type="hidden" name="intent" value={BRAND_INTENTS.removeLogo} />
            <Button type="submit" variant="outline" disabled={busy}>
              Remove logo
            </Button>
          </remove.Form>
        )}
      </div>
      <p
        role="status"
        aria-live="polite"
        data-testid="logo-status"
        className={shown && !shown.ok ? "mt-2 text-sm text-danger" : "mt-2 text-sm text-success"}
      >
        {!busy && shown?.message ? shown.message : null}
      </p>
    </section>
  );
}

/** A swatch of a colour where it is used: a button with its text, and a link on the surface. */
function Swatch({
  colour,
  surface,
  buttonText,
  label,
}: {
  colour: string;
  surface: string;
  buttonText: string;
  label: string;
}) {
  return (
    <div
      className="flex flex-wrap items-center gap-3 rounded-md border border-border p-3"
      style={{ backgroundColor: surface }}
      data-testid="accent-swatch"
    >
      <span
        className="rounded-md px-3 py-1.5 text-sm font-semibold"
        style={{ backgroundColor: colour, color: buttonText }}
      >
        Pay now
      </span>
      <span className="text-sm font-semibold underline" style={{ color: colour }}>
        View your statement
      </span>
      <span className="font-mono text-sm" style={{ color: buttonText === "#ffffff" ? "#1f2030" : "#f8f8f2" }}>
        {`${label}: ${colour} · ${contrastLabel(colour, surface)}`}
      </span>
    </div>
  );
}

export default function SettingsBrand({ loaderData }: Route.ComponentProps) {
  const { name, hasBusinessName, logoUrl } = loaderData;
  const fetcher = useFetcher<typeof action>();
  const busy = fetcher.state !== "idle";
  const result = useFormResult(fetcher, [BRAND_INTENTS.save]);
  const accentNow = loaderData.accent ?? DEFAULT_ACCENT;
  const [form, fields] = useValibotForm(BrandSchema, {
    id: "brand",
    lastResult: busy ? undefined : result?.result,
    defaultValue: {
      accent: accentNow,
      signature: loaderData.signature,
      powered_by: loaderData.poweredBy ? "on" : undefined,
    },
  });
  const textRef = useRef<HTMLInputElement>(null);
  // What the text field holds now (typed or picked): the swatches and the picker follow it.
  const [typed, setTyped] = useState<string>(accentNow);
  const valid = normalizeHex(typed);
  const colours = accentColours(valid ?? accentNow);
  const [sigLength, setSigLength] = useState(loaderData.signature.length);
  return (
    <SettingsTabs current="brand">
      <section aria-labelledby="brand-title" className="rounded-xl border border-border bg-surface p-6">
        <h2 id="brand-title" className="text-xl font-semibold">
          Your brand
        </h2>
        <p className="mt-1 text-sm text-muted">
          Your reminders, receipts and your debtors' statement pages speak as you: your name, logo, colour and
          signature.
        </p>
        <p className="mt-3 break-words" data-testid="brand-name">
          {"Business name: "}
          <strong>{name}</strong>
          {hasBusinessName ? "" : " (your name: no business name is set)"}
          {". "}
          <Link to="/iam/info" className="text-primary underline underline-offset-2">
            Change it in Personal information
          </Link>
        </p>
      </section>

      <LogoForm logoUrl={logoUrl} name={name} />

      <section aria-labelledby="brand-form-title" className="rounded-xl border border-border bg-surface p-6">
        <h2 id="brand-form-title" className="text-xl font-semibold">
          Colour and signature
        </h2>
        <fetcher.Form method="post" {...getFormProps(form)} className="mt-4 flex max-w-xl flex-col gap-4">
          <input type="hidden" name="intent" value={BRAND_INTENTS.save} />
          <input type="hidden" name="accent_was" value={accentNow} />
          <div>
            <Label htmlFor={fields.accent.id}>Accent colour</Label>
            <div className="mt-1 flex items-center gap-2">
              <input
                type="color"
                name="accent_picker"
                aria-label="Pick the accent colour"
                value={valid ?? accentNow}
                className="h-10 w-14 shrink-0 cursor-pointer rounded-md border border-border bg-background p-1"
                onChange={(event) => {
                  const input = textRef.current;
                  setTyped(event.currentTarget.value);
                  if (!input) return;
                  input.value = event.currentTarget.value;
                  input.dispatchEvent(new Event("input", { bubbles: true }));
                }}
              />
              <input
                {...getInputProps(fields.accent, { type: "text", ariaDescribedBy: "brand-accent-help" })}
                key={fields.accent.key}
                ref={textRef}
                className={inputClass}
                spellCheck={false}
                autoComplete="off"
                maxLength={16}
                onInput={(event) => setTyped(event.currentTarget.value)}
              />
            </div>
            <p id="brand-accent-help" className="mt-1 text-xs text-muted">
              {
                "Buttons and links in your e-mails and on your statement pages. # and six hexadecimal digits; blank: Dunly's violet (#6d28d9)."
              }
            </p>
            <FieldError id={fields.accent.errorId} errors={fields.accent.errors} />
          </div>
          {valid && (
            <div className="flex flex-col gap-2" data-testid="accent-result">
              {colours.lightAdjusted || colours.darkAdjusted ? (
                <p className="text-sm" data-testid="accent-adjusted">
                  {colours.lightAdjusted && colours.darkAdjusted
                    ? `${colours.chosen} has too little contrast in both themes, so it was adjusted: darker on light backgrounds, lighter in the dark theme (same hue, at least 4.5:1).`
                    : colours.lightAdjusted
                      ? `${colours.chosen} has too little contrast on white (${contrastLabel(colours.chosen, "#ffffff")}), so it was adjusted: a darker shade of the same hue reaches at least 4.5:1.`
                      : `${colours.chosen} is too dark for the dark theme (${contrastLabel(colours.chosen, "#282a36")}), so a lighter shade of the same hue is used there (at least 4.5:1).`}
                </p>
              ) : (
                <p className="text-sm text-muted">{`${colours.chosen} reads well in both themes (at least 4.5:1).`}</p>
              )}
              <Swatch colour={colours.light} surface="#ffffff" buttonText="#ffffff" label="Light" />
              <Swatch colour={colours.dark} surface="#282a36" buttonText="#1e1f29" label="Dark" />
            </div>
          )}
          <FormField meta={fields.signature} label="E-mail signature">
            <textarea
              {...getTextareaProps(fields.signature, { ariaDescribedBy: "brand-signature-help" })}
              key={fields.signature.key}
              rows={4}
              maxLength={SIGNATURE_MAX}
              className={`${inputClass} mt-1 h-auto`}
              onInput={(event) => setSigLength(event.currentTarget.value.length)}
            />
            <p id="brand-signature-help" className="mt-1 text-xs text-muted">
              {`Plain text under the sign-off of your reminders, up to ${SIGNATURE_MAX} characters${sigLength ? ` (${sigLength} now)` : ""}: your name, role, phone.`}
            </p>
          </FormField>
          <div>
            <div className="flex items-start gap-2">
              {/* A disabled box is not sent: the hidden field keeps it on for plans that cannot remove it. */}
              {!loaderData.mayRemovePoweredBy && <input type="hidden" name="powered_by" value="on" />}
              <input
                {...getInputProps(fields.powered_by, {
                  type: "checkbox",
                  value: "on",
                  ariaDescribedBy: "brand-powered-help",
                })}
                key={fields.powered_by.key}
                disabled={!loaderData.mayRemovePoweredBy}
                className="mt-1"
              />
              <Label htmlFor={fields.powered_by.id}>Show “Powered by Dunly” in e-mails and on statement pages</Label>
            </div>
            <p id="brand-powered-help" className="mt-1 text-xs text-muted">
              {loaderData.mayRemovePoweredBy ? (
                "A small line under the footer. Your Aggressive plan may remove it."
              ) : (
                <>
                  {"Only the Aggressive plan can remove it. "}
                  <Link to="/pricing" className="text-primary underline underline-offset-2">
                    See the plans
                  </Link>
                </>
              )}
            </p>
            <FieldError id={fields.powered_by.errorId} errors={fields.powered_by.errors} />
          </div>
          <FormStatus result={result} busy={busy} formStatus={form.status} />
          <SubmitButton busy={busy} className="self-start">
            Save brand
          </SubmitButton>
        </fetcher.Form>
      </section>
    </SettingsTabs>
  );
}

export function ErrorBoundary() {
  return <RouteError message="We couldn't load your brand." />;
}

export const meta: Route.MetaFunction = () => pageMeta("Brand · Settings");
