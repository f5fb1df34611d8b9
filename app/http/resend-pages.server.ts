import { Hono } from "hono";
import type { AppBindings } from "~/http/hono-env";
import { listStandInDomains, setStandInStatus } from "~/mail/standin/resend-domains.server";
import { escapeHtml, standInPage } from "./standin-page";

/**
 * The local stand-in of Resend's Domains API, the page a person clicks through (docs/decisions/059),
 * under /dev/resend (development and test only, like the dev mailbox and /dev/checkout): every
 * domain the stand-in holds, with what Resend would conclude after reading the DNS: "Verify" (every
 * record found), "Fail" (none found) and "Back to pending". The user's Settings → Sending domain
 * then reads it through the mail Worker, as it reads Resend.
 */
export const resendPages = new Hono<AppBindings>();

const ACTIONS = {
  verify: { status: "verified", label: "Verify", note: "Resend found every record: the domain sends." },
  fail: { status: "failed", label: "Fail", note: "Resend could not find the records: the domain does not send." },
  pending: { status: "pending", label: "Back to pending", note: "Resend is still looking." },
} as const;
type ActionId = keyof typeof ACTIONS;

function render(body: string): string {
  return standInPage({
    title: "Resend domains (local stand-in)",
    banner:
      'This page stands in for Resend in local development and tests: nothing here reads real DNS. Choose what Resend would conclude, then go back to <a href="/iam/domain">Settings → Sending domain</a> and choose "Check verification".',
    accent: { background: "#1d4ed8", border: "#1d4ed8" },
    width: "48rem",
    css: `article{border:1px solid #ddd;border-radius:8px;padding:1rem;margin:1rem 0}h2{margin:0 0 .25rem;font-size:1.1rem;overflow-wrap:anywhere}
.meta{color:#555;font-size:.9rem;margin:0 0 .75rem}code{overflow-wrap:anywhere}ul{padding-left:1.25rem}
form{display:inline-block;margin:.25rem .5rem .25rem 0}a{color:#1d4ed8}`,
    body,
  });
}

resendPages.get("/domains", async (c) => {
  const domains = await listStandInDomains(c.env.DB);
  const items = domains
    .map((d) => {
      const forms = (Object.keys(ACTIONS) as ActionId[])
        .filter((id) => ACTIONS[id].status !== d.status)
        .map(
          (id) =>
            `<form method="post" action="/dev/resend/domains/${encodeURIComponent(d.id)}/${id}"><button type="submit"${id === "verify" ? "" : ' class="secondary"'} aria-label="${escapeHtml(`${ACTIONS[id].label} ${d.name}`)}">${escapeHtml(ACTIONS[id].label)}</button></form>`,
        )
        .join("");
      const records = d.records
        .map((r) => `<li>${escapeHtml(r.record)} ${escapeHtml(r.type)} <code>${escapeHtml(r.name)}</code></li>`)
        .join("");
      return `<article data-testid="standin-domain">
  <h2>${escapeHtml(d.name)}</h2>
  <p class="meta">Status <b data-testid="standin-status">${escapeHtml(d.status)}</b> · id <code>${escapeHtml(d.id)}</code></p>
  <ul>${records}</ul>
  ${forms}
</article>`;
    })
    .join("\n");
  return c.html(render(items || "<p>No domains yet: add one in Settings → Sending domain.</p>"));
});

resendPages.post("/domains/:id/:action", async (c) => {
  const action = ACTIONS[c.req.param("action") as ActionId];
  if (!action || !Object.hasOwn(ACTIONS, c.req.param("action"))) return c.text("Not found", 404);
  const found = await setStandInStatus(c.env.DB, c.req.param("id"), action.status);
  if (!found) return c.text("Not found", 404);
  return c.redirect("/dev/resend/domains", 303);
});
