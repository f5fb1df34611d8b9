import { getFormProps } from "@conform-to/react";
import { Camera, Loader2 } from "lucide-react";
import { useRef, useState } from "react";
import { useFetcher } from "react-router";
import type { profileAction } from "~/actions/profile-action.server";
import { Avatar } from "~/components/avatar";
import { notify } from "~/components/toast";
import { Button, SubmitButton } from "~/components/ui/button";
import { InputField } from "~/components/ui/field";
import { IMAGE_TOO_LARGE, MAX_IMAGE_BYTES, UNSUPPORTED_IMAGE } from "~/domain/upload-limits";
import { PROFILE_INTENTS } from "~/schemas/intents";
import { ProfileNameSchema } from "~/schemas/profile";
import { useAutoHide } from "~/ui/use-auto-hide";
import { cancelOnEscape, useFocusAfterRender } from "~/ui/use-focus-after-render";
import { useFormResult } from "~/ui/use-form-result";
import { useValibotForm } from "~/ui/use-valibot-form";

const ACCEPTED = ["image/jpeg", "image/png", "image/webp"];
const EDIT_NAME_ID = "edit-name";

/** Info tab: the photo (JPEG, PNG, WebP up to 5 MB, checked again by the server) and the name. */
export function ProfileInfo({
  profile,
}: {
  profile: {
    fullName: string;
    businessName: string | null;
    email: string;
    emailVerified: boolean;
    imageUrl: string | null;
  };
}) {
  const photo = useFetcher<typeof profileAction>();
  const name = useFetcher<typeof profileAction>();
  const photoReply = useFormResult(photo, [PROFILE_INTENTS.photo], (data) => {
    if (data.ok) notify("success", data.message ?? "Photo updated");
    else setAlert(data.message);
  });
  const focusAfterRender = useFocusAfterRender();
  const nameReply = useFormResult(name, [PROFILE_INTENTS.name], (data) => {
    if (!data.ok) return;
    stopEditing();
    notify("success", data.message ?? "Profile updated");
  });
  // A document post that failed (before hydration) comes back with its form open and its message.
  const [editing, setEditing] = useState(() => nameReply?.ok === false);
  const [alert, setAlert] = useAutoHide<string>(() => (photoReply?.ok === false ? photoReply.message : null));
  const fileInput = useRef<HTMLInputElement>(null);
  const uploading = photo.state !== "idle";
  const saving = name.state !== "idle";

  const [form, fields] = useValibotForm(ProfileNameSchema, {
    id: PROFILE_INTENTS.name,
    lastResult: saving ? undefined : nameReply?.result,
    defaultValue: { full_name: profile.fullName, business_name: profile.businessName ?? "" },
  });
  // The form opens on its field; closed (Cancel, Escape or saved), the focus is back on 'Edit'.
  function startEditing() {
    setEditing(true);
    focusAfterRender(fields.full_name.id);
  }
  function stopEditing() {
    setEditing(false);
    focusAfterRender(EDIT_NAME_ID);
  }

  return (
    <section aria-labelledby="info-title" className="rounded-xl border border-border bg-surface p-6">
      <h1 id="info-title" className="text-2xl font-bold">
        Personal information
      </h1>
      <div className="mt-6 flex flex-col gap-6 sm:flex-row sm:items-start">
        <photo.Form method="post" encType="multipart/form-data" className="flex flex-col items-center gap-3">
          <input type="hidden" name="intent" value={PROFILE_INTENTS.photo} />
          <Avatar user={profile} className="h-24 w-24 text-2xl" />
          <input
            ref={fileInput}
            id="photo-input"
            type="file"
            name="photo"
            accept="image/jpeg,image/png,image/webp"
            className="sr-only"
            // Reached through the 'Change photo' button; hidden from the tab order and screen readers.
            tabIndex={-1}
            aria-hidden
            onChange={(event) => {
              const file = event.currentTarget.files?.[0];
              if (!file) return;
              // A quick check here; the server checks the file's bytes, whatever its name. A file
              // over the limit is never sent, rather than uploaded only to be refused
              // (app/domain/upload-limits.ts).
              const refused =
                file.type && !ACCEPTED.includes(file.type)
                  ? UNSUPPORTED_IMAGE
                  : file.size > MAX_IMAGE_BYTES
                    ? IMAGE_TOO_LARGE
                    : null;
              if (refused) {
                setAlert(refused);
                event.currentTarget.value = "";
                return;
              }
              setAlert(null);
              photo.submit(event.currentTarget.form, { method: "post", encType: "multipart/form-data" });
            }}
          />
          <Button
            type="button"
            variant="outline"
            size="sm"
            disabled={uploading}
            onClick={() => fileInput.current?.click()}
          >
            {uploading ? (
              <Loader2 className="h-4 w-4 animate-spin" aria-hidden />
            ) : (
              <Camera className="h-4 w-4" aria-hidden />
            )}
            Change photo
          </Button>
        </photo.Form>
        <div className="min-w-0 flex-1">
          {editing ? (
            <name.Form
              method="post"
              {...getFormProps(form)}
              className="flex max-w-sm flex-col gap-3"
              onKeyDown={cancelOnEscape(stopEditing)}
            >
              <input type="hidden" name="intent" value={PROFILE_INTENTS.name} />
              <InputField meta={fields.full_name} type="text" label="Full Name" autoComplete="name" />
              <InputField
                meta={fields.business_name}
                type="text"
                label="Business name (optional)"
                autoComplete="organization"
              />
              <div className="flex gap-2">
                <Button type="button" variant="outline" onClick={stopEditing}>
                  Cancel
                </Button>
                <SubmitButton busy={saving}>Save</SubmitButton>
              </div>
            </name.Form>
          ) : (
            <dl className="grid gap-2 text-sm sm:grid-cols-[8rem_1fr]">
              <dt className="text-muted">Full Name</dt>
              <dd className="flex items-center gap-3">
                <span data-testid="profile-name" className="min-w-0 [overflow-wrap:anywhere]">
                  {profile.fullName}
                </span>
                <Button id={EDIT_NAME_ID} variant="link" size="sm" onClick={startEditing}>
                  Edit<span className="sr-only"> name</span>
                </Button>
              </dd>
              <dt className="text-muted">Business</dt>
              <dd className="[overflow-wrap:anywhere]" data-testid="profile-business">
                {profile.businessName ?? <span className="text-muted">Not set: reminders go out under your name</span>}
              </dd>
              <dt className="text-muted">Email</dt>
              <dd className="[overflow-wrap:anywhere]">
                {profile.email}
                {profile.emailVerified && <span className="ml-2 text-xs text-success">Verified</span>}
              </dd>
            </dl>
          )}
        </div>
      </div>
      <div role="alert" aria-live="assertive">
        {alert && <p className="mt-4 rounded-md border border-danger px-3 py-2 text-sm text-danger">{alert}</p>}
      </div>
    </section>
  );
}
