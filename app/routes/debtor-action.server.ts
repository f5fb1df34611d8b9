import { data, type RouterContextProvider } from "react-router";
import { requireUser } from "~/auth/guard.server";
import { getDb } from "~/db/client.server";
import { getApp } from "~/lib/context.server";
import { handleDebtorIntent } from "~/models/debtor-actions.server";

/** The action of every page that shows the debtors table (dashboard, /debtors-list). */
export async function debtorPageAction({
  context,
  request,
  url,
}: {
  context: Readonly<RouterContextProvider>;
  request: Request;
  url: URL;
}) {
  const user = requireUser(context, url);
  const formData = await request.formData();
  const intent = String(formData.get("intent") ?? "");
  if (intent.startsWith("debtor-")) return handleDebtorIntent(getDb(getApp(context).env.DB), user.id, intent, formData);
  throw data(null, { status: 400 });
}
