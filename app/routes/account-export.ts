import { exportStream } from "~/account/index.server";
import { getApp } from "~/auth/context.server";
import { requireUser } from "~/auth/guard.server";
import { getDb } from "~/db/client.server";
import type { Route } from "./+types/account-export";

/**
 * /account-data.json: Settings → Export my data: everything the
 * signed-in account owns, as one JSON document streamed while it is read (app/account/export.server.ts).
 * The session's own data only; never cached.
 */
export async function loader({ context, url }: Route.LoaderArgs) {
  const user = await requireUser(context, url);
  const now = Date.now();
  const day = new Date(now).toISOString().slice(0, 10);
  const { env } = getApp(context);
  return new Response(exportStream(getDb(env.DB), { id: user.id, email: user.email }, now, env.ARCHIVE), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="dunly-data-${day}.json"`,
      "Cache-Control": "private, no-store",
    },
  });
}
