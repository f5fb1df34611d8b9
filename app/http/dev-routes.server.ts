import { and, desc, eq } from "drizzle-orm";
import { Hono } from "hono";
import { getDb } from "~/db/client.server";
import { debtors, devOutbox } from "~/db/schema";
import { MAX_REPLY_BYTES } from "~/domain/inbound-mail";
import { quickBooksPages } from "~/http/quickbooks-pages.server";
import { resendPages } from "~/http/resend-pages.server";
import { standInPages } from "~/http/stripe-pages/pages.server";
import { textPages } from "~/http/text-pages.server";
import { xeroPages } from "~/http/xero-pages.server";
import { skipPlanDays, watchPlans } from "~/ledger/index.server";
import { portalLink } from "~/links/index.server";
import { ageAccount, skipAhead } from "~/reminders/index.server";
import { REJECTIONS, receiveReply } from "~/responses/index.server";
import type { AppBindings } from "./hono-env";
import { escapeHtml } from "./standin-page";

/**
 * The dev mailbox and the schedules' wait skipped for the end-to-end
 * tests: only where APP_ENV is development or test; 404 elsewhere.
 */
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
    cc: m.cc,
    subject: m.subject,
    html: m.html,
    text: m.text,
    createdAt: new Date(m.createdAt).toISOString(),
  }));
}

devRoutes.get("/mailbox.json", async (c) => c.json(await listOutbox(c.env.DB)));

devRoutes.get("/mailbox", async (c) => {
  const messages = await listOutbox(c.env.DB);
  const items = messages
    .map(
      (m) => `<article>
  <h2>${escapeHtml(m.subject)}</h2>
  <p class="meta">To <b>${escapeHtml(m.to)}</b> · From ${escapeHtml(m.from)}${m.cc ? ` · Cc ${escapeHtml(m.cc)}` : ""}${m.replyTo ? ` · Reply-To ${escapeHtml(m.replyTo)}` : ""} · ${escapeHtml(m.createdAt)}</p>
  <iframe sandbox title="${escapeHtml(m.subject)}" srcdoc="${escapeHtml(m.html)}"></iframe>
  <details><summary>Plain text</summary><pre>${escapeHtml(m.text)}</pre></details>
</article>`,
    )
    .join("\n");
  return c.html(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Dev mailbox · Dunly</title>
<style>body{font-family:system-ui,sans-serif;max-width:860px;margin:2rem auto;padding:0 1rem;color:#222}
article{border:1px solid #ddd;border-radius:8px;padding:1rem;margin:1rem 0}h2{margin:0 0 .25rem;font-size:1.1rem}
.meta{color:#555;font-size:.9rem;margin:0 0 .75rem;overflow-wrap:anywhere}iframe{width:100%;height:420px;border:1px solid #eee;border-radius:4px}</style>
</head><body><h1>Dev mailbox</h1><p>E-mails the mail Worker would have sent (newest first). JSON: <a href="/dev/mailbox.json">/dev/mailbox.json</a></p>
${items || "<p>No messages yet.</p>"}</body></html>`);
});

/** The longest wait one call may skip: a week (a weekly schedule's next run at most). */
const MAX_ADVANCE_MS = 7 * 86_400_000;

/**
 * Skips `ms` of waiting for the signed-in user's enabled schedules: each
 * next run moves `ms` earlier and its alarm is re-armed for it, so a reminder due within `ms` goes
 * out now through the real alarm, engine, mail queue and mail Worker. Nothing else changes: not
 * the clock, not another user's schedules. Answers each schedule's creation time and next run
 * before and after, so a test can check when it was due.
 */
devRoutes.post("/schedules/advance", async (c) => {
  const user = c.get("user");
  if (!user) return c.json({ error: "Not signed in" }, 401);
  const body: unknown = await c.req.json().catch(() => null);
  const ms = typeof body === "object" && body !== null ? (body as { ms?: unknown }).ms : undefined;
  if (typeof ms !== "number" || !Number.isInteger(ms) || ms <= 0 || ms > MAX_ADVANCE_MS) {
    return c.json({ error: `ms must be a whole number of milliseconds from 1 to ${MAX_ADVANCE_MS}` }, 400);
  }
  const scope = { env: c.env, db: getDb(c.env.DB), ownerId: user.id, now: Date.now() };
  return c.json(await skipAhead(scope, ms));
});

/**
 * Lets `days` whole days pass for the signed-in user's account (ageAccount): their invoices fell
 * due, their schedules ran and their reminders went that many days earlier, so the cadence's next
 * step comes as planned. Nothing of another user's changes.
 */
devRoutes.post("/schedules/age", async (c) => {
  const user = c.get("user");
  if (!user) return c.json({ error: "Not signed in" }, 401);
  const body: unknown = await c.req.json().catch(() => null);
  const days = typeof body === "object" && body !== null ? (body as { days?: unknown }).days : undefined;
  if (typeof days !== "number" || !Number.isInteger(days) || days <= 0 || days > 60) {
    return c.json({ error: "days must be a whole number from 1 to 60" }, 400);
  }
  const scope = { env: c.env, db: getDb(c.env.DB), ownerId: user.id, now: Date.now() };
  return c.json(await ageAccount(scope, days));
});

/**
 * Skips `days` of a payment plan (decisions/066) for the signed-in user: their active plans'
 * instalment dates move that many days earlier, then the watchdog's plan step runs now (reminders,
 * nudges, a missed instalment told, plans that end). Nothing else changes.
 */
devRoutes.post("/plans/advance", async (c) => {
  const user = c.get("user");
  if (!user) return c.json({ error: "Not signed in" }, 401);
  const body: unknown = await c.req.json().catch(() => null);
  const days = typeof body === "object" && body !== null ? (body as { days?: unknown }).days : undefined;
  if (typeof days !== "number" || !Number.isInteger(days) || days <= 0 || days > 400) {
    return c.json({ error: "days must be a whole number from 1 to 400" }, 400);
  }
  const db = getDb(c.env.DB);
  const moved = await skipPlanDays(db, user.id, days);
  const watched = await watchPlans(c.env, db, c.get("config"), Date.now());
  return c.json({ moved, ...watched });
});

/** The signed-in user's own debtor's page link (a debtor of another user: 404), so a test can open it as the debtor. */
devRoutes.get("/debtors/:id/portal", async (c) => {
  const user = c.get("user");
  if (!user) return c.json({ error: "Not signed in" }, 401);
  const id = Number(c.req.param("id"));
  const db = getDb(c.env.DB);
  const [debtor] = await db
    .select({ id: debtors.id, ownerId: debtors.ownerId, optOutKey: debtors.optOutKey })
    .from(debtors)
    .where(and(eq(debtors.ownerId, user.id), eq(debtors.id, Number.isSafeInteger(id) ? id : 0)));
  if (!debtor) return c.notFound();
  return c.json({ url: await portalLink(db, c.get("config"), debtor) });
});

// The local Stripe stand-in's pages: checkout, onboarding and the billing portal (decisions/017).
/**
 * A reply to a reminder, as Cloudflare Email Routing would deliver it (decisions/020): the raw RFC
 * 822 message is the body; the envelope recipient is `?to=` or else the message's To header. The
 * same receiveReply as the Worker's email() handler. 202 when accepted, 422 with the SMTP
 * rejection's text when refused.
 */
devRoutes.post("/inbound", async (c) => {
  const raw = new Uint8Array(await c.req.arrayBuffer());
  if (raw.byteLength > MAX_REPLY_BYTES) return c.json({ ok: false, reason: "too-large" }, 413);
  const text = new TextDecoder().decode(raw);
  const headerOf = (name: string) =>
    new RegExp(`^${name}:[^\\n]*?([^\\s<>,"]+@[^\\s<>,"]+)`, "im").exec(text.split(/\r?\n\r?\n/)[0] ?? "")?.[1] ?? "";
  const to = c.req.query("to") ?? headerOf("To");
  const from = c.req.query("from") ?? headerOf("From");
  const outcome = await receiveReply(c.env, c.get("config"), { to, from, raw, size: raw.byteLength });
  if (!outcome.ok) return c.json({ ...outcome, message: REJECTIONS[outcome.reason] }, 422);
  return c.json(outcome, 202);
});

devRoutes.route("/checkout", standInPages);
// The local stand-in of Resend's Domains API: verify or fail a user's sending domain (decisions/059).
devRoutes.route("/resend", resendPages);
// The local Xero stand-in: its consent page and the organisation's invoices (decisions/060).
devRoutes.route("/xero", xeroPages);
// The local QuickBooks Online stand-in: its consent page and the company's invoices (decisions/061).
devRoutes.route("/quickbooks", quickBooksPages);
// The local Twilio stand-in: the dev outbox of text messages at /dev/texts (decisions/068).
devRoutes.route("/", textPages);
