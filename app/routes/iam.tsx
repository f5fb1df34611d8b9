import { parseWithValibot } from "@conform-to/valibot";
import { data, Link, NavLink } from "react-router";
import type { Route } from "./+types/iam";
import { requireUser } from "~/auth/guard.server";
import { checkUserPassword, hasPassword, setPassword } from "~/auth/password.server";
import { PasswordForm } from "~/components/password-form";
import { getDb } from "~/db/client.server";
import { getApp } from "~/lib/context.server";
import { SetPasswordSchema } from "~/schemas/auth";
import { cn } from "~/lib/utils";

const TABS = [
  { id: "info", label: "Personal information" },
  { id: "orgs", label: "Organisations" },
  { id: "subscription", label: "Your Subscription" },
] as const;
type Tab = (typeof TABS)[number]["id"];

function parseTab(tab: string | undefined): Tab {
  const found = TABS.find((t) => t.id === (tab ?? "info"));
  if (!found) throw data(null, { status: 404 });
  return found.id;
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const tab = parseTab(params.tab);
  const db = getDb(getApp(context).env.DB);
  return {
    tab,
    profile: { fullName: user.fullName, email: user.email, plan: user.plan },
    hasPassword: tab === "info" ? await hasPassword(db, user.id) : false,
  };
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const user = requireUser(context, request);
  parseTab(params.tab);
  const db = getDb(getApp(context).env.DB);
  const formData = await request.formData();
  if (formData.get("intent") !== "set-password") throw data(null, { status: 400 });
  const submission = parseWithValibot(formData, { schema: SetPasswordSchema });
  const hide = { hideFields: ["currentPassword", "newPassword", "confirmPassword"] };
  if (submission.status !== "success") return data({ result: submission.reply(hide), saved: false }, { status: 400 });
  if (await hasPassword(db, user.id)) {
    const current = submission.value.currentPassword ?? "";
    if (!current || !(await checkUserPassword(db, user.id, current))) {
      return data(
        { result: submission.reply({ ...hide, fieldErrors: { currentPassword: ["The current password is not correct"] } }), saved: false },
        { status: 400 },
      );
    }
  }
  await setPassword(db, user.id, submission.value.newPassword);
  return { result: submission.reply({ resetForm: true }), saved: true };
}

export default function Settings({ loaderData }: Route.ComponentProps) {
  const { tab, profile } = loaderData;
  const linkClass = ({ isActive }: { isActive: boolean }) =>
    cn("rounded-md px-3 py-2 text-sm font-medium", isActive || undefined ? "bg-primary text-primary-foreground" : "hover:bg-surface-2");
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-10 md:flex-row">
      <nav aria-label="Settings" className="flex gap-2 overflow-x-auto md:w-56 md:shrink-0 md:flex-col">
        {TABS.map((t) => (
          <NavLink key={t.id} to={`/iam/${t.id}`} className={(state) => linkClass({ isActive: state.isActive || (t.id === "info" && tab === "info") })}>
            {t.label}
          </NavLink>
        ))}
      </nav>
      <div className="flex min-w-0 flex-1 flex-col gap-6">
        {tab === "info" && (
          <>
            <section className="rounded-xl border border-border bg-surface p-6">
              <h1 className="text-2xl font-bold">Personal information</h1>
              <dl className="mt-4 grid gap-2 text-sm sm:grid-cols-[8rem_1fr]">
                <dt className="text-muted">Full Name</dt>
                <dd>{profile.fullName}</dd>
                <dt className="text-muted">Email</dt>
                <dd>{profile.email}</dd>
              </dl>
            </section>
            <PasswordForm hasPassword={loaderData.hasPassword} />
          </>
        )}
        {tab === "orgs" && (
          <section className="rounded-xl border border-border bg-surface p-6">
            <h1 className="text-2xl font-bold">Organisations</h1>
          </section>
        )}
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
      </div>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Settings · Dunly" }];
