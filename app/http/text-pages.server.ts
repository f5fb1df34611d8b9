import { desc, eq } from "drizzle-orm";
import { type Context, Hono } from "hono";
import { getDb } from "~/db/client.server";
import { debtors, textMessages } from "~/db/schema";
import { TEXT_MAX_CHARS } from "~/domain/text-message";
import type { AppBindings } from "~/http/hono-env";
import { appOrigin } from "~/platform/config.server";
import { STANDIN_MESSAGING_SERVICE_SID, sendText, textChannel, twilioSignature } from "~/texts/index.server";
import { escapeHtml, standInPage } from "./standin-page";
import { receiveTwilioRequest, type TwilioEndpoint } from "./twilio-webhooks.server";

/**
 * The dev outbox of text messages (decisions/068), under /dev/texts (development and test only,
 * like the dev mailbox; JSON at /dev/texts.json): every text the client gave the stand-in, newest first, with what Twilio
 * and the debtor could do next: deliver it, report it undelivered or failed, or reply as the
 * debtor (a message, STOP or START). Each button signs the form Twilio would send with the
 * stand-in's auth token and hands it to the same webhook code as Twilio's requests.
 */
export const textPages = new Hono<AppBindings>();

/** The stand-in's Twilio account (its callbacks carry it as Twilio's do). */
const STANDIN_ACCOUNT_SID = "AC00000000000000000000000000000000";

const STATUSES = {
  delivered: { label: "Deliver", errorCode: null, note: "The phone received it." },
  undelivered: { label: "Undelivered", errorCode: "30003", note: "Unreachable handset (30003)." },
  failed: { label: "Fail", errorCode: "30008", note: "Unknown error from the carrier (30008)." },
} as const;
type StatusId = keyof typeof STATUSES;

async function listTexts(db: D1Database) {
  const rows = await getDb(db).select().from(textMessages).orderBy(desc(textMessages.id)).limit(100);
  return rows.map((t) => ({
    id: t.id,
    ownerId: t.ownerId,
    debtorId: t.debtorId,
    deliveryId: t.deliveryId,
    key: t.idempotencyKey,
    to: t.to,
    body: t.body,
    sid: t.sid,
    provider: t.provider,
    status: t.status,
    errorCode: t.errorCode,
    error: t.error,
    createdAt: new Date(t.createdAt).toISOString(),
  }));
}

textPages.get("/texts.json", async (c) => c.json(await listTexts(c.env.DB)));
/** What the test-send form shows again after a refusal: the values typed and why. */
interface SendForm {
  to: string;
  body: string;
  debtorId: string;
  error?: string;
}

/** The signed-in user's debtors (50 at most), for the test-send form's "as a text to" choice. */
async function debtorsOf(db: D1Database, ownerId: string) {
  return await getDb(db)
    .select({ id: debtors.id, fullName: debtors.fullName })
    .from(debtors)
    .where(eq(debtors.ownerId, ownerId))
    .orderBy(debtors.fullName)
    .limit(50);
}

async function sendForm(c: Context<AppBindings>, form: SendForm) {
  const user = c.get("user");
  if (!user) return "<p>Sign in to send a test text from here.</p>";
  const options = (await debtorsOf(c.env.DB, user.id))
    .map(
      (d) =>
        `<option value="${d.id}"${String(d.id) === form.debtorId ? " selected" : ""}>${escapeHtml(d.fullName)}</option>`,
    )
    .join("");
  return `<section aria-labelledby="send-heading"><h2 id="send-heading">Send a test text</h2>
<p class="meta">Through the same client as a reminder's text, as your account. Replies from the number reach the debtor chosen.</p>
<form method="post" action="/dev/texts/send" class="reply">
  ${form.error ? `<p class="error" role="alert" id="send-error">${escapeHtml(form.error)}</p>` : ""}
  <label for="send-debtor">Debtor</label>
  <select id="send-debtor" name="debtorId"><option value="">None</option>${options}</select>
  <label for="send-to">Number (E.164, such as +447700900123)</label>
  <input id="send-to" name="to" type="tel" autocomplete="off" required value="${escapeHtml(form.to)}"${form.error ? ' aria-describedby="send-error"' : ""}>
  <label for="send-body">Message</label>
  <textarea id="send-body" name="body" rows="3" maxlength="${TEXT_MAX_CHARS}" required>${escapeHtml(form.body)}</textarea>
  <button type="submit">Send test text</button>
</form></section>`;
}

async function renderPage(c: Context<AppBindings>, form: SendForm, status: 200 | 400 = 200) {
  const texts = await listTexts(c.env.DB);
  const items = texts
    .map((t) => {
      const standIn = t.provider === "standin" && t.sid !== null;
      const statusForms = standIn
        ? (Object.keys(STATUSES) as StatusId[])
            .map(
              (id) =>
                `<form method="post" action="/dev/texts/${t.id}/status/${id}"><button type="submit"${id === "delivered" ? "" : ' class="secondary"'} aria-label="${escapeHtml(`${STATUSES[id].label}: the text to ${t.to}`)}" title="${escapeHtml(STATUSES[id].note)}">${escapeHtml(STATUSES[id].label)}</button></form>`,
            )
            .join("")
        : "";
      const replyForms = standIn
        ? `<form method="post" action="/dev/texts/${t.id}/reply" class="reply">
  <label for="reply-${t.id}">Reply as ${escapeHtml(t.to)}</label>
  <textarea id="reply-${t.id}" name="body" rows="2" maxlength="1600" required></textarea>
  <button type="submit">Send reply</button>
</form>
<form method="post" action="/dev/texts/${t.id}/reply"><input type="hidden" name="body" value="STOP"><button type="submit" class="secondary" aria-label="${escapeHtml(`Reply STOP from ${t.to}`)}">Reply STOP</button></form>
<form method="post" action="/dev/texts/${t.id}/reply"><input type="hidden" name="body" value="START"><button type="submit" class="secondary" aria-label="${escapeHtml(`Reply START from ${t.to}`)}">Reply START</button></form>`
        : "";
      return `<article data-testid="dev-text" id="text-${t.id}">
  <h2>To ${escapeHtml(t.to)}</h2>
  <p class="meta">Status <b data-testid="dev-text-status">${escapeHtml(t.status)}</b>${t.errorCode ? ` (error ${escapeHtml(t.errorCode)})` : ""} · ${escapeHtml(t.sid ?? "no SID")} · key <code>${escapeHtml(t.key)}</code> · ${escapeHtml(t.createdAt)}</p>
  <p class="body" data-testid="dev-text-body">${escapeHtml(t.body)}</p>
  ${t.error ? `<p class="error">${escapeHtml(t.error)}</p>` : ""}
  ${statusForms}
  ${replyForms}
</article>`;
    })
    .join("\n");
  return c.html(
    standInPage({
      title: "Dev texts (local Twilio stand-in)",
      banner:
        'Text messages Dunly would have sent through Twilio, newest first. Nothing here reaches a phone. Each button sends the signed request Twilio would, to the same webhooks. JSON: <a href="/dev/texts.json">/dev/texts.json</a>',
      accent: { background: "#b4002d", border: "#b4002d" },
      width: "48rem",
      css: `article{border:1px solid #ddd;border-radius:8px;padding:1rem;margin:1rem 0}h2{margin:0 0 .25rem;font-size:1.1rem;overflow-wrap:anywhere}
.meta{color:#555;font-size:.9rem;margin:0 0 .75rem;overflow-wrap:anywhere}.body{white-space:pre-wrap;background:#f4f4f5;border-radius:12px;padding:.75rem;overflow-wrap:anywhere}
.error{color:#a00}form{display:inline-block;margin:.25rem .5rem .25rem 0}form.reply{display:block}form.reply label{display:block;font-weight:600;margin:.5rem 0 .25rem}
textarea,input,select{display:block;width:100%;box-sizing:border-box;font:inherit;margin-bottom:.5rem;padding:.4rem}a{color:#b4002d}`,
      body: `${await sendForm(c, form)}
<h2>Texts</h2>
${items || "<p>No texts yet.</p>"}`,
    }),
    status,
  );
}

textPages.get("/texts", async (c) => renderPage(c, { to: "", body: "", debtorId: "" }));

/**
 * A test text from the signed-in user (development and test only): through `sendText`, as a
 * reminder's text goes, under a key of its own. A debtor not the user's answers 404; a refusal
 * shows the page again with the values typed and why.
 */
textPages.post("/texts/send", async (c) => {
  const user = c.get("user");
  if (!user) return c.text("Not signed in", 401);
  const posted = await c.req.parseBody();
  const field = (name: string) => (typeof posted[name] === "string" ? (posted[name] as string) : "");
  const form: SendForm = {
    to: field("to").trim().slice(0, 40),
    body: field("body").slice(0, 2000),
    debtorId: field("debtorId"),
  };
  let debtorId: number | null = null;
  if (form.debtorId !== "") {
    const mine = (await debtorsOf(c.env.DB, user.id)).find((d) => String(d.id) === form.debtorId);
    if (!mine) return c.text("Not found", 404);
    debtorId = mine.id;
  }
  const result = await sendText(c.env, c.get("config"), {
    ownerId: user.id,
    debtorId,
    to: form.to,
    body: form.body,
    idempotencyKey: `dev-test:${crypto.randomUUID()}`,
  });
  if (!result.ok) return renderPage(c, { ...form, error: result.error }, 400);
  return c.redirect("/dev/texts", 303);
});

/** Signs `params` as Twilio would for `endpoint` and hands them to the webhook's own code. */
async function fire(c: Context<AppBindings>, endpoint: TwilioEndpoint, params: [string, string][]) {
  const config = c.get("config");
  const channel = textChannel(config);
  if (channel.mode !== "standin") return null;
  const url = `${appOrigin(config, c.req.url)}/webhooks/twilio/${endpoint}`;
  const signature = await twilioSignature(channel.authToken, url, params);
  return await receiveTwilioRequest(
    c.env,
    config,
    c.executionCtx,
    endpoint,
    url,
    new URLSearchParams(params).toString(),
    signature,
  );
}

async function standInText(db: D1Database, id: string) {
  const n = Number(id);
  if (!Number.isSafeInteger(n)) return null;
  const [t] = await getDb(db).select().from(textMessages).where(eq(textMessages.id, n));
  return t && t.provider === "standin" && t.sid ? { ...t, sid: t.sid } : null;
}

textPages.post("/texts/:id/status/:status", async (c) => {
  const id = c.req.param("status");
  if (!Object.hasOwn(STATUSES, id)) return c.text("Not found", 404);
  const status = STATUSES[id as StatusId];
  const text = await standInText(c.env.DB, c.req.param("id"));
  if (!text) return c.text("Not found", 404);
  const params: [string, string][] = [
    ["AccountSid", STANDIN_ACCOUNT_SID],
    ["MessageSid", text.sid],
    ["SmsSid", text.sid],
    ["MessageStatus", id],
    ["SmsStatus", id],
    ["To", text.to],
    ["MessagingServiceSid", STANDIN_MESSAGING_SERVICE_SID],
    ["ApiVersion", "2010-04-01"],
  ];
  if (status.errorCode) params.push(["ErrorCode", status.errorCode]);
  const answer = await fire(c, "status", params);
  if (!answer) return c.text("Not found", 404);
  if (answer.status !== 200) return c.text(`The status callback answered ${answer.status}: ${answer.body}`, 500);
  return c.redirect(`/dev/texts#text-${text.id}`, 303);
});

textPages.post("/texts/:id/reply", async (c) => {
  const text = await standInText(c.env.DB, c.req.param("id"));
  if (!text) return c.text("Not found", 404);
  const form = await c.req.parseBody();
  const body = typeof form.body === "string" ? form.body.slice(0, 1600) : "";
  if (body.trim() === "") return c.text("Write a reply first", 400);
  const bytes = crypto.getRandomValues(new Uint8Array(14));
  const sid = `SMin${[...bytes].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
  const params: [string, string][] = [
    ["AccountSid", STANDIN_ACCOUNT_SID],
    ["MessageSid", sid],
    ["SmsSid", sid],
    ["SmsMessageSid", sid],
    ["From", text.to],
    ["To", STANDIN_MESSAGING_SERVICE_SID],
    ["MessagingServiceSid", STANDIN_MESSAGING_SERVICE_SID],
    ["Body", body],
    ["NumMedia", "0"],
    ["NumSegments", "1"],
    ["ApiVersion", "2010-04-01"],
  ];
  const word = body.trim().toUpperCase();
  // Twilio's Advanced Opt-Out names the keyword it recognised.
  if (word === "STOP" || word === "START" || word === "HELP") params.push(["OptOutType", word]);
  const answer = await fire(c, "inbound", params);
  if (!answer) return c.text("Not found", 404);
  if (answer.status !== 200) return c.text(`The inbound webhook answered ${answer.status}: ${answer.body}`, 500);
  return c.redirect(`/dev/texts#text-${text.id}`, 303);
});
