import { getFormProps, getInputProps } from "@conform-to/react";
import { useFetcher } from "react-router";
import type { debtorAction } from "~/actions/debtor-action.server";
import { Button, SubmitButton } from "~/components/ui/button";
import { FormError, InputField } from "~/components/ui/field";
import type { ContactRow } from "~/debtors/index.server";
import type { ActionResult } from "~/platform/action-result";
import { CONTACT_NAME_MAX, CONTACT_ROLE_MAX, ContactFormSchema } from "~/schemas/contact";
import { CONTACT_INTENTS } from "~/schemas/intents";
import { useFormResult } from "~/ui/use-form-result";
import { useValibotForm } from "~/ui/use-valibot-form";

/** Add or edit one contact: name, e-mail, role and "CC on reminders" (on for a new one). */
export function ContactForm({
  debtorId,
  contact,
  onResult,
  onCancel,
}: {
  debtorId: number;
  contact?: ContactRow;
  onResult: (data: ActionResult) => void;
  onCancel?: () => void;
}) {
  const fetcher = useFetcher<typeof debtorAction>();
  const busy = fetcher.state !== "idle";
  const intent = contact ? CONTACT_INTENTS.edit : CONTACT_INTENTS.add;
  const reply = useFormResult(fetcher, [intent], (data) => {
    if (data.ok || data.message) onResult(data);
  });
  const [form, fields] = useValibotForm(ContactFormSchema, {
    id: contact ? `contact-edit-${contact.id}` : `contact-add-${debtorId}`,
    lastResult: busy ? undefined : reply?.result,
    defaultValue: contact
      ? { name: contact.name, email: contact.email, role: contact.role ?? "", cc: contact.cc ? "on" : "" }
      : { cc: "on" },
  });
  const ccHelp = `${form.id}-cc-help`;
  return (
    <fetcher.Form
      method="post"
      {...getFormProps(form)}
      aria-label={contact ? `Edit ${contact.name}` : "Add a contact"}
      className="flex flex-col gap-3 rounded-md border border-border p-3"
    >
      <input type="hidden" name="intent" value={intent} />
      {contact ? (
        <input type="hidden" name="id" value={contact.id} />
      ) : (
        <input type="hidden" name="debtor_id" value={debtorId} />
      )}
      <div className="grid gap-3 sm:grid-cols-2">
        <InputField
          meta={fields.name}
          type="text"
          label="Name"
          placeholder="Jane Doe"
          autoComplete="off"
          maxLength={CONTACT_NAME_MAX}
          autoFocus={Boolean(onCancel)}
        />
        <InputField meta={fields.email} type="email" label="Email" placeholder="jane@example.com" autoComplete="off" />
        <InputField
          meta={fields.role}
          type="text"
          label="Role (optional)"
          placeholder="Accounts payable"
          autoComplete="off"
          maxLength={CONTACT_ROLE_MAX}
        />
        <div className="flex items-start gap-2 self-end pb-2">
          <input
            {...getInputProps(fields.cc, { type: "checkbox", value: "on", ariaDescribedBy: ccHelp })}
            key={fields.cc.key}
            className="mt-1 h-4 w-4"
          />
          <label htmlFor={fields.cc.id} className="text-sm">
            CC on reminders
            <span id={ccHelp} className="block text-xs text-muted">
              Gets a copy of every reminder to this debtor.
            </span>
          </label>
        </div>
      </div>
      <FormError form={form} />
      <div className="flex flex-wrap justify-end gap-2">
        {onCancel && (
          <Button type="button" variant="outline" onClick={onCancel}>
            Cancel
          </Button>
        )}
        <SubmitButton busy={busy}>{contact ? "Save contact" : "Add contact"}</SubmitButton>
      </div>
    </fetcher.Form>
  );
}
