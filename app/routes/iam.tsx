import { parseWithValibot } from "@conform-to/valibot";
import { Tabs } from "radix-ui";
import { data, Link } from "react-router";
import * as v from "valibot";
import { requireUser } from "~/auth/guard.server";
import { checkUserPassword, hasPassword, setPassword } from "~/auth/password.server";
import { PasswordForm } from "~/components/password-form";
import { OrgManager } from "~/components/settings/org-manager";
import { ProfileInfo } from "~/components/settings/profile-info";
import { type Db, getDb } from "~/db/client.server";
import { getApp } from "~/lib/context.server";
import {
  IMAGE_TOO_LARGE,
  ImageRejected,
  MAX_IMAGE_BYTES,
  signedImageUrl,
  storeProfileImage,
  UNSUPPORTED_IMAGE,
} from "~/lib/images.server";
import {
  createOrganization,
  deleteOrganization,
  listOrganizations,
  updateOrganization,
} from "~/models/organization.server";
import { setProfileImage, updateProfileName } from "~/models/user.server";
import { SetPasswordSchema } from "~/schemas/auth";
import { OrganizationSchema } from "~/schemas/organization";
import { ProfileNameSchema } from "~/schemas/profile";
import type { Route } from "./+types/iam";

const TABS = [
  { id: "info", label: "Personal information", short: "Info" },
  { id: "orgs", label: "Organisations", short: "Organisations" },
  { id: "subscription", label: "Your Subscription", short: "Subscription" },
] as const;
type Tab = (typeof TABS)[number]["id"];

function parseTab(tab: string | undefined): Tab {
  const found = TABS.find((t) => t.id === (tab ?? "info"));
  if (!found) throw data(null, { status: 404 });
  return found.id;
}

export async function loader({ context, request, params, url }: Route.LoaderArgs) {
  const user = requireUser(context, url);
  const tab = parseTab(params.tab);
  const { env } = getApp(context);
  const db = getDb(env.DB);
  return {
    tab,
    profile: {
      fullName: user.fullName,
      email: user.email,
      imageUrl: user.imgKey ? await signedImageUrl(env, user.imgKey) : null,
    },
    hasPassword: tab === "info" ? await hasPassword(db, user.id) : false,
    organizations: tab === "orgs" ? await listOrganizations(db, user.id) : [],
  };
}

const IdField = v.pipe(v.string(), v.regex(/^\d+$/), v.transform(Number), v.integer(), v.minValue(1));
const reply = (intent: string, ok: boolean, message: string | null, result?: unknown) => ({
  intent,
  ok,
  message,
  result,
});

async function organizationIntent(db: Db, ownerId: string, intent: string, formData: FormData) {
  if (intent === "org-delete") {
    const id = v.safeParse(IdField, formData.get("id"));
    if (!id.success || !(await deleteOrganization(db, ownerId, id.output)))
      return data(reply(intent, false, "Something went wrong"), { status: 404 });
    return reply(intent, true, "Organization deleted");
  }
  const submission = parseWithValibot(formData, { schema: OrganizationSchema });
  if (submission.status !== "success") return data(reply(intent, false, null, submission.reply()), { status: 400 });
  if (intent === "org-add") {
    await createOrganization(db, ownerId, submission.value);
    return reply(intent, true, "Organization added", submission.reply({ resetForm: true }));
  }
  const id = v.safeParse(IdField, formData.get("id"));
  const updated = id.success ? await updateOrganization(db, ownerId, id.output, submission.value) : undefined;
  if (!updated) return data(reply(intent, false, "Something went wrong", submission.reply()), { status: 404 });
  return reply(intent, true, "Organization updated", submission.reply({ resetForm: true }));
}

export async function action({ context, request, params, url }: Route.ActionArgs) {
  const user = requireUser(context, url);
  parseTab(params.tab);
  const { env, ctx } = getApp(context);
  const db = getDb(env.DB);
  // Refuse oversized uploads before reading the body (5 MB plus room for the multipart envelope).
  if (Number(request.headers.get("Content-Length") ?? 0) > MAX_IMAGE_BYTES + 64 * 1024) {
    return data(reply("profile-photo", false, IMAGE_TOO_LARGE), { status: 413 });
  }
  const formData = await request.formData();
  const intent = String(formData.get("intent") ?? "");

  if (intent.startsWith("org-")) return organizationIntent(db, user.id, intent, formData);

  if (intent === "profile-name") {
    const submission = parseWithValibot(formData, { schema: ProfileNameSchema });
    if (submission.status !== "success") return data(reply(intent, false, null, submission.reply()), { status: 400 });
    await updateProfileName(db, user.id, submission.value.full_name);
    return reply(intent, true, "Profile updated", submission.reply({ resetForm: true }));
  }

  if (intent === "profile-photo") {
    const file = formData.get("photo");
    if (!(file instanceof File) || file.size === 0)
      return data(reply(intent, false, UNSUPPORTED_IMAGE), { status: 400 });
    try {
      const key = await storeProfileImage(env, user.id, await file.arrayBuffer());
      const previous = await setProfileImage(db, user.id, key);
      if (previous) ctx.waitUntil(env.IMAGES.delete(previous));
    } catch (error) {
      if (error instanceof ImageRejected) return data(reply(intent, false, error.message), { status: 400 });
      throw error;
    }
    return reply(intent, true, "Photo updated");
  }

  if (intent === "set-password") {
    const submission = parseWithValibot(formData, { schema: SetPasswordSchema });
    const hide = { hideFields: ["currentPassword", "newPassword", "confirmPassword"] };
    if (submission.status !== "success") return data({ result: submission.reply(hide), saved: false }, { status: 400 });
    if (await hasPassword(db, user.id)) {
      const current = submission.value.currentPassword ?? "";
      if (!current || !(await checkUserPassword(db, user.id, current))) {
        return data(
          {
            result: submission.reply({
              ...hide,
              fieldErrors: { currentPassword: ["The current password is not correct"] },
            }),
            saved: false,
          },
          { status: 400 },
        );
      }
    }
    await setPassword(db, user.id, submission.value.newPassword);
    return { result: submission.reply({ resetForm: true }), saved: true };
  }
  throw data(null, { status: 400 });
}

export default function Settings({ loaderData }: Route.ComponentProps) {
  const { tab, profile } = loaderData;
  return (
    <Tabs.Root
      value={tab}
      orientation="vertical"
      className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-10 md:flex-row"
    >
      <Tabs.List aria-label="Settings" className="flex gap-2 overflow-x-auto md:w-56 md:shrink-0 md:flex-col">
        {TABS.map((t) => (
          <Tabs.Trigger key={t.id} value={t.id} asChild>
            <Link
              to={`/iam/${t.id}`}
              className="whitespace-nowrap rounded-md px-3 py-2 text-sm font-medium hover:bg-surface-2 data-[state=active]:bg-primary data-[state=active]:text-primary-foreground"
            >
              <span className="md:hidden">{t.short}</span>
              <span className="hidden md:inline">{t.label}</span>
            </Link>
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      <Tabs.Content value={tab} className="flex min-w-0 flex-1 flex-col gap-6 outline-none">
        {tab === "info" && (
          <>
            <ProfileInfo profile={profile} />
            <PasswordForm hasPassword={loaderData.hasPassword} />
          </>
        )}
        {tab === "orgs" && <OrgManager organizations={loaderData.organizations} />}
        {tab === "subscription" && (
          <section className="rounded-xl border border-border bg-surface p-6">
            <h1 className="text-2xl font-bold">Your Subscription</h1>
            <p className="mt-4">
              You are on the <strong>Medium</strong> plan.
            </p>
            <Link to="/pricing" className="mt-4 inline-block text-primary underline">
              See all plans on the pricing page
            </Link>
          </section>
        )}
      </Tabs.Content>
    </Tabs.Root>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Settings · Dunly" }];
