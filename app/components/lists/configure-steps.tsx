import type { ReactNode } from "react";
import type { FetcherWithComponents } from "react-router";
import { Button, SubmitButton } from "~/components/ui/button";

/** The steps of a Configure modal: its details, the edit form, the 'Are you sure…?' before disabling. */
export type ConfigureStep = "details" | "edit" | "disable";

/** The details step of a Configure modal: the facts (`children`), then Disable and Edit. */
export function DetailsStep({
  children,
  onDisable,
  onEdit,
}: {
  children: ReactNode;
  onDisable: () => void;
  onEdit: () => void;
}) {
  return (
    <div className="flex flex-col gap-4">
      {children}
      <div className="flex justify-end gap-2">
        <Button variant="danger" onClick={onDisable}>
          Disable
        </Button>
        <Button onClick={onEdit}>Edit</Button>
      </div>
    </div>
  );
}

/** The 'Are you sure…?' step of a Configure modal: `message`, Cancel, and a danger submit posting `intent` and `id`. */
export function ConfirmStep<T>({
  fetcher,
  action,
  intent,
  id,
  message,
  confirmLabel,
  onCancel,
}: {
  fetcher: FetcherWithComponents<T>;
  /** Where to post; the current route when omitted. */
  action?: string;
  intent: string;
  id: string | number;
  message: string;
  confirmLabel: string;
  onCancel: () => void;
}) {
  return (
    <fetcher.Form method="post" action={action} className="flex flex-col gap-4">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={id} />
      <p role="alert">{message}</p>
      <div className="flex justify-end gap-2">
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <SubmitButton variant="danger" busy={fetcher.state !== "idle"}>
          {confirmLabel}
        </SubmitButton>
      </div>
    </fetcher.Form>
  );
}
