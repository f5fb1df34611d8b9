import { getFormProps, getInputProps, getTextareaProps } from "@conform-to/react";
import { Plus } from "lucide-react";
import { useEffect, useState } from "react";
import { useActionData, useFetcher } from "react-router";
import type { organizationAction } from "~/actions/organization-action.server";
import { notify } from "~/components/toast";
import { Button, SubmitButton } from "~/components/ui/button";
import { FormError, FormField, InputField } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { type ActionResult, isActionResult } from "~/platform/action-result";
import { ORGANIZATION_INTENTS } from "~/schemas/intents";
import { OrganizationSchema } from "~/schemas/organization";
import { cancelOnEscape, useFocusAfterRender } from "~/ui/use-focus-after-render";
import { useFormResult } from "~/ui/use-form-result";
import { useValibotForm } from "~/ui/use-valibot-form";

type Org = { id: number; name: string; address: string; paymentUrl?: string | null };

const ADD_ORG_ID = "add-organization";
const editOrgId = (id: number) => `edit-org-${id}`;

/**
 * One organization's form (or a new one's). It opens on its first field; Escape or Cancel closes
 * it, and the focus goes back to the button that opened it (onClose does that).
 */
export function OrgForm({ org, onClose }: { org?: Org; onClose: (deleted?: boolean) => void }) {
  const fetcher = useFetcher<typeof organizationAction>();
  const busy = fetcher.state !== "idle";
  const [confirming, setConfirming] = useState(false);
  const focusAfterRender = useFocusAfterRender();
  const payHelpId = `${org ? `org-${org.id}` : "org-new"}-payment-url-help`;
  const reply = useFormResult(
    fetcher,
    org ? [ORGANIZATION_INTENTS.edit, ORGANIZATION_INTENTS.remove] : [ORGANIZATION_INTENTS.add],
    (data) => {
      if (data.ok) {
        notify("success", data.message ?? "Saved");
        onClose(data.intent === ORGANIZATION_INTENTS.remove);
      } else if (data.message) notify("error", data.message);
    },
  );
  const [form, fields] = useValibotForm(OrganizationSchema, {
    id: org ? `org-${org.id}` : "org-new",
    lastResult: busy ? undefined : reply?.result,
    defaultValue: { name: org?.name ?? "", address: org?.address ?? "", payment_url: org?.paymentUrl ?? "" },
  });
  const nameId = fields.name.id;
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the form opens
  useEffect(() => focusAfterRender(nameId), []);
  const confirmId = `${form.id}-keep`;

  // Delete asks first, its focus on 'No'; 'No' or Escape goes back to the form, on 'Delete'.
  const deleteId = `${form.id}-delete`;
  function keep() {
    setConfirming(false);
    focusAfterRender(deleteId);
  }
  function confirmDelete() {
    setConfirming(true);
    focusAfterRender(confirmId);
  }

  if (org && confirming) {
    return (
      <fetcher.Form
        method="post"
        className="flex flex-col gap-4 rounded-lg border border-danger bg-background p-4"
        onKeyDown={cancelOnEscape(keep)}
      >
        <input type="hidden" name="intent" value={ORGANIZATION_INTENTS.remove} />
        <input type="hidden" name="id" value={org.id} />
        <p role="alert">Are you sure you want to delete this organization?</p>
        <div className="flex gap-2">
          <SubmitButton variant="danger" busy={busy}>
            Yes
          </SubmitButton>
          <Button id={confirmId} type="button" variant="outline" onClick={keep}>
            No
          </Button>
        </div>
      </fetcher.Form>
    );
  }

  return (
    <fetcher.Form
      method="post"
      {...getFormProps(form)}
      className="flex flex-col gap-4 rounded-lg border border-border bg-background p-4"
      onKeyDown={cancelOnEscape(() => onClose())}
    >
      <input type="hidden" name="intent" value={org ? ORGANIZATION_INTENTS.edit : ORGANIZATION_INTENTS.add} />
      {org && <input type="hidden" name="id" value={org.id} />}
      <InputField meta={fields.name} type="text" label="Company Name" placeholder="Company Name" />
      <FormField meta={fields.address} label="Company Address">
        <textarea
          {...getTextareaProps(fields.address)}
          key={fields.address.key}
          placeholder="Company Address"
          rows={3}
          className="mt-1 w-full rounded-md border border-border bg-background px-3 py-2 text-sm aria-[invalid=true]:border-danger"
        />
      </FormField>
      <FormField meta={fields.payment_url} label="Payment link (optional)">
        <Input
          {...getInputProps(fields.payment_url, { type: "text", ariaDescribedBy: payHelpId })}
          key={fields.payment_url.key}
          className="mt-1"
          placeholder="https://"
          autoComplete="url"
          inputMode="url"
          spellCheck={false}
        />
        <p id={payHelpId} className="mt-1 text-xs text-muted">
          The 'Pay now' button of reminders sent as this organization opens it. Leave it empty to use the payment link
          of your profile.
        </p>
      </FormField>
      <FormError form={form} />
      <div className="flex flex-wrap gap-2">
        <Button type="button" variant="outline" onClick={() => onClose()}>
          Cancel
        </Button>
        <SubmitButton busy={busy}>Save</SubmitButton>
        {org && (
          <Button id={deleteId} type="button" variant="danger" className="ml-auto" onClick={confirmDelete}>
            Delete
          </Button>
        )}
      </div>
    </fetcher.Form>
  );
}

/** The form a failed document post (before hydration) was sent from, so it opens again with its errors. */
function failedForm(actionData: unknown): number | "new" | null {
  if (!isActionResult(actionData) || actionData.ok) return null;
  const { intent, result }: ActionResult = actionData;
  if (intent === ORGANIZATION_INTENTS.add) return "new";
  const id = Number(result?.initialValue?.id);
  return intent === ORGANIZATION_INTENTS.edit && Number.isInteger(id) ? id : null;
}

/** Orgs tab: the list with Edit, and Add Organization; one form open at a time. */
export function OrgManager({ organizations }: { organizations: Org[] }) {
  const actionData: unknown = useActionData();
  const [open, setOpen] = useState<number | "new" | null>(() => failedForm(actionData));
  const focusAfterRender = useFocusAfterRender();
  // A closed form gives the focus back to its Edit button (to Add Organization once deleted or added).
  const close = (returnTo: string) => {
    setOpen(null);
    focusAfterRender(returnTo);
  };
  return (
    <section aria-labelledby="orgs-title" className="rounded-xl border border-border bg-surface p-6">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <h1 id="orgs-title" className="text-2xl font-bold">
          Organizations
        </h1>
        {open !== "new" && (
          <Button id={ADD_ORG_ID} onClick={() => setOpen("new")}>
            <Plus className="h-4 w-4" aria-hidden /> Add Organization
          </Button>
        )}
      </div>
      {open === "new" && (
        <div className="mb-4">
          <OrgForm onClose={() => close(ADD_ORG_ID)} />
        </div>
      )}
      {organizations.length === 0 ? (
        <p className="text-muted">You have not added any organizations yet.</p>
      ) : (
        <ul className="flex flex-col gap-3">
          {organizations.map((o) =>
            open === o.id ? (
              <li key={o.id}>
                <OrgForm org={o} onClose={(deleted) => close(deleted ? ADD_ORG_ID : editOrgId(o.id))} />
              </li>
            ) : (
              <li
                key={o.id}
                className="flex items-start justify-between gap-4 rounded-lg border border-border bg-background p-4"
              >
                <div className="min-w-0">
                  <p className="font-semibold">{o.name}</p>
                  <p className="whitespace-pre-line text-sm text-muted">{o.address}</p>
                  {o.paymentUrl && (
                    <p className="mt-1 break-all text-sm">
                      <span className="text-muted">Payment link:</span> {o.paymentUrl}
                    </p>
                  )}
                </div>
                <Button
                  id={editOrgId(o.id)}
                  variant="outline"
                  size="sm"
                  onClick={() => setOpen(o.id)}
                  aria-label={`Edit ${o.name}`}
                >
                  Edit
                </Button>
              </li>
            ),
          )}
        </ul>
      )}
    </section>
  );
}
