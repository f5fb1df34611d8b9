import { desc } from "drizzle-orm";
import { Hono } from "hono";
import { getDb } from "~/db/client.server";
import { devOutbox } from "~/db/schema";
import type { AppBindings } from "./hono-env";

/** The dev mailbox (docs/architecture.md §5): only where APP_ENV is development or test; 404 elsewhere. */
export const devRoutes = new Hono<AppBindings>();

devRoutes.use("*", async (c, next) => {
  const { APP_ENV } = c.get("config");
  if (APP_ENV !== "development" && APP_ENV !== "test") return c.notFound();
  await next();
});

async function listOutbox(db: D1Database) {
  const rows = await getDb(db).select().from(devOutbox).orderBy(desc(devOutbox.id)).limit(100);
  return rows.map((m) => ({
    to: m.to,
    from: m.from,
    replyTo: m.replyTo,
    subject: m.subject,
    html: m.html,
    text: m.text,
    createdAt: new Date(m.createdAt).toISOString(),
  }));
}

devRoutes.get("/mailbox.json", async (c) => c.json(await listOutbox(c.env.DB)));

devRoutes.get("/mailbox", async (c) => {
  const messages = await listOutbox(c.env.DB);
  const entities: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
  const escapeHtml = (s: string | null) => (s ?? "").replace(/[&<>"']/g, (ch) => entities[ch] ?? ch);
  const items = messages
    .map(
      (m) => `<article>
  <h2>${escapeHtml(m.subject)}</h2>
  <p class="meta">To <b>${escapeHtml(m.to)}</b> · From ${escapeHtml(m.from)}${m.replyTo ? ` · Reply-To ${escapeHtml(m.replyTo)}` : ""} · ${escapeHtml(m.createdAt)}</p>
  <iframe sandbox title="${escapeHtml(m.subject)}" srcdoc="${escapeHtml(m.html)}"></iframe>
  <details><summary>Plain text</summary><pre>${escapeHtml(m.text)}</pre></details>
</article>`,
    )
    .join("\n");
  return c.html(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Dev mailbox · Dunly</title>
<style>body{font-family:system-ui,sans-serif;max-width:860px;margin:2rem auto;padding:0 1rem;color:#222}
article{border:1px solid #ddd;border-radius:8px;padding:1rem;margin:1rem 0}h2{margin:0 0 .25rem;font-size:1.1rem}
.meta{color:#555;font-size:.9rem;margin:0 0 .75rem}iframe{width:100%;height:420px;border:1px solid #eee;border-radius:4px}</style>
</head><body><h1>Dev mailbox</h1><p>E-mails the mail Worker would have sent (newest first). JSON: <a href="/dev/mailbox.json">/dev/mailbox.json</a></p>
${items || "<p>No messages yet.</p>"}</body></html>`);
});
