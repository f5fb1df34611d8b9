import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { CONTACT_LIMIT_MESSAGE, CONTACT_TWIN_MESSAGE, MAX_OTHER_CONTACTS } from "~/domain/contacts";
import { optOutLink, replyAddress } from "~/links/signed-links.server";
import { readConfig } from "~/platform/config.server";
import { fireSchedule } from "~/reminders/engine.server";
import type { MailQueueMessage } from "~/reminders/mail-queue.server";
import { apiJson, decodeTurbo, formAction, postMultipart, replyErrors } from "./data-helpers";
import { consumeJobs, fireAndSend, programResend, resendRequests } from "./engine-helpers";
import { db, debtorRow, makeDebtor, makeSchedule, makeUser, setPlan, setSchedule } from "./fixtures";
import { get, ORIGIN, postForm, request, signIn, uniqueEmail, uniqueIp, visibleText } from "./helpers";

/**
 * A debtor's contacts (docs/decisions/057): added, edited and removed from the debtor's page and
 * the JSON API within the owner's debtors; the primary contact's name greets, the others are CC'd
 * on the debtor's reminders; a copy's opt-out or bounce stops only that copy, the primary's stops
 * the debtor as before; a reply from a copied contact is the debtor's.
 */

const DAY = 86_400_000;
/** A fixed instant at 10:00 UTC: a debtor in UTC may get a reminder then. */
const AT = Date.UTC(2026, 10, 23, 10, 0);

const SECRET = "whsec_dGVzdC13ZWJob29rLXNlY3JldC1mb3ItZHVubHk=";

async function contactsOf(debtorId: number) {
  return (
    await env.DB.prepare("SELECT * FROM debtor_contacts WHERE debtor_id = ? ORDER BY id")
      .bind(debtorId)
      .all<{ id: number; name: string; email: string; role: string | null; cc: number; bounced_at: number | null }>()
  ).results;
}

async function addContactRow(
  ownerId: string,
  debtorId: number,
  email: string,
  o: { name?: string; cc?: boolean } = {},
) {
  const row = await env.DB.prepare(
    "INSERT INTO debtor_contacts (owner_id, debtor_id, name, email, cc) VALUES (?, ?, ?, ?, ?) RETURNING id",
  )
    .bind(ownerId, debtorId, o.name ?? "Carl Copy", email.toLowerCase(), o.cc === false ? 0 : 1)
    .first<{ id: number }>();
  return row!.id;
}

/** An owner, a debtor in UTC with a contact person, a daily schedule due at AT, and two other contacts (one not copied). */
async function sendingSetup() {
  const user = await makeUser("Sally Sender");
  const debtor = await makeDebtor(user.id, { fullName: "Acme Ltd", timeZone: "UTC", email: uniqueEmail("acme") });
  await env.DB.prepare("UPDATE debtors SET contact_name = 'Jane' WHERE id = ?").bind(debtor.id).run();
  const copied = uniqueEmail("copied");
  const quiet = uniqueEmail("quiet");
  const copiedId = await addContactRow(user.id, debtor.id, copied, { name: "Carl Copy" });
  await addContactRow(user.id, debtor.id, quiet, { name: "Quentin Quiet", cc: false });
  const scheduleId = await makeSchedule(user.id, debtor.id, { frequency: "daily", timeZone: "UTC" });
  await setSchedule(scheduleId, { next_run_at: AT });
  return { user, debtor, copied: copied.toLowerCase(), copiedId, quiet: quiet.toLowerCase(), scheduleId };
}

async function sentTo(primary: string) {
  return (await resendRequests(primary)).filter((r) => r.status === 200);
}

describe("contacts on the debtor's page (form) and the JSON API", () => {
  it("adds, edits and removes a contact both ways; another user's debtor or contact answers 404", async () => {
    const owner = await signIn(uniqueEmail("contacts-owner"));
    const other = await signIn(uniqueEmail("contacts-other"));
    const debtor = await makeDebtor(owner.userId, { fullName: "Acme Ltd" });
    const page = `/debtors/${debtor.id}`;

    const added = await formAction(
      page,
      {
        intent: "contact-add",
        debtor_id: String(debtor.id),
        name: "Jane Payable",
        email: "Jane.Payable@Example.com",
        role: "Accounts payable",
        cc: "on",
      },
      owner.cookie,
    );
    expect(added.status, JSON.stringify(added.data)).toBe(200);
    const viaApi = await apiJson("POST", "/debtors/contacts/add", {
      cookie: owner.cookie,
      json: { debtor_id: debtor.id, name: "Bob Boss", email: "bob@example.com", cc: false },
    });
    expect(viaApi.status).toBe(200);
    expect(viaApi.body).toMatchObject({ success: true, data: { name: "Bob Boss", cc: false, opted_out: false } });
    const [jane, bob] = await contactsOf(debtor.id);
    expect(jane).toMatchObject({
      name: "Jane Payable",
      email: "jane.payable@example.com",
      role: "Accounts payable",
      cc: 1,
    });
    expect(bob).toMatchObject({ email: "bob@example.com", cc: 0, role: null });

    // The page shows them, with their state.
    const text = await visibleText(await get(page, { cookie: owner.cookie }));
    expect(text).toContain("Jane Payable");
    expect(text).toContain("CC on reminders");
    expect(text).toContain("Not copied");

    // GET /api/debtors/:id returns the primary first, then the others.
    const read = await apiJson("GET", `/debtors/${debtor.id}`, { cookie: owner.cookie });
    expect(read.body.contacts).toEqual([
      expect.objectContaining({ primary: true, email: debtor.email.toLowerCase() }),
      expect.objectContaining({ primary: false, name: "Jane Payable", cc: true }),
      expect.objectContaining({ primary: false, name: "Bob Boss", cc: false }),
    ]);

    // Edit: the form without the checkbox turns CC off; the API turns it back on.
    const edited = await formAction(
      page,
      { intent: "contact-edit", id: String(jane!.id), name: "Jane P.", email: "jane.payable@example.com" },
      owner.cookie,
    );
    expect(edited.status).toBe(200);
    expect((await contactsOf(debtor.id))[0]).toMatchObject({ name: "Jane P.", cc: 0, role: null });
    const apiEdit = await apiJson("PUT", "/debtors/contacts/edit", {
      cookie: owner.cookie,
      json: { id: jane!.id, name: "Jane P.", email: "jane.payable@example.com", role: "AP" },
    });
    expect(apiEdit.body).toMatchObject({ success: true, data: { cc: true, role: "AP" } });

    // Another user: 404 both ways, nothing changes.
    const foreignAdd = await formAction(
      page,
      { intent: "contact-add", debtor_id: String(debtor.id), name: "Eve", email: "eve@example.com", cc: "on" },
      other.cookie,
    );
    expect(foreignAdd.status).toBe(404);
    expect(
      (
        await apiJson("POST", "/debtors/contacts/add", {
          cookie: other.cookie,
          json: { debtor_id: debtor.id, name: "Eve", email: "eve@example.com" },
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await formAction(
          page,
          { intent: "contact-edit", id: String(bob!.id), name: "Eve", email: "eve@example.com" },
          other.cookie,
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await apiJson("PUT", "/debtors/contacts/edit", {
          cookie: other.cookie,
          json: { id: bob!.id, name: "Eve", email: "eve@example.com" },
        })
      ).status,
    ).toBe(404);
    expect((await formAction(page, { intent: "contact-delete", id: String(bob!.id) }, other.cookie)).status).toBe(404);
    expect(
      (await apiJson("DELETE", "/debtors/contacts/del", { cookie: other.cookie, json: { id: bob!.id } })).status,
    ).toBe(404);
    expect(await contactsOf(debtor.id)).toHaveLength(2);

    // Remove, both ways.
    expect((await formAction(page, { intent: "contact-delete", id: String(bob!.id) }, owner.cookie)).status).toBe(200);
    expect(
      (await apiJson("DELETE", "/debtors/contacts/del", { cookie: owner.cookie, json: { id: jane!.id } })).status,
    ).toBe(200);
    expect(await contactsOf(debtor.id)).toEqual([]);
  });

  it("refuses bad fields, the debtor's own address and a twin with field errors, keeping what was typed", async () => {
    const owner = await signIn(uniqueEmail("contacts-fields"));
    const debtor = await makeDebtor(owner.userId, { email: uniqueEmail("primary") });
    const page = `/debtors/${debtor.id}`;
    const bad = await formAction(
      page,
      { intent: "contact-add", debtor_id: String(debtor.id), name: "", email: "not-an-address", role: "x".repeat(101) },
      owner.cookie,
    );
    expect(bad.status).toBe(400);
    expect(Object.keys(replyErrors(bad.data)).sort()).toEqual(["email", "name", "role"]);
    expect(bad.data.result.initialValue).toMatchObject({ email: "not-an-address" });

    const primary = await formAction(
      page,
      { intent: "contact-add", debtor_id: String(debtor.id), name: "Me", email: debtor.email.toUpperCase() },
      owner.cookie,
    );
    expect(primary.status).toBe(400);
    expect(replyErrors(primary.data).email).toEqual(["This is the debtor's main address already."]);

    await addContactRow(owner.userId, debtor.id, "twin@example.com");
    const twin = await apiJson("POST", "/debtors/contacts/add", {
      cookie: owner.cookie,
      json: { debtor_id: debtor.id, name: "Twin", email: "TWIN@example.com" },
    });
    expect(twin.status).toBe(400);
    expect(twin.body.errors).toEqual({ email: [CONTACT_TWIN_MESSAGE] });
  });

  it(`bounds a debtor's contacts at ${MAX_OTHER_CONTACTS + 1} (the primary included) with a clear message`, async () => {
    const owner = await signIn(uniqueEmail("contacts-bound"));
    const debtor = await makeDebtor(owner.userId);
    for (let i = 0; i < MAX_OTHER_CONTACTS; i++) await addContactRow(owner.userId, debtor.id, `c${i}@bound.example`);
    const form = await formAction(
      `/debtors/${debtor.id}`,
      { intent: "contact-add", debtor_id: String(debtor.id), name: "One more", email: "more@bound.example" },
      owner.cookie,
    );
    expect(form.status).toBe(403);
    expect(form.data.result.error[""]).toEqual([CONTACT_LIMIT_MESSAGE]);
    expect(form.data.result.initialValue).toMatchObject({ name: "One more" });
    const api = await apiJson("POST", "/debtors/contacts/add", {
      cookie: owner.cookie,
      json: { debtor_id: debtor.id, name: "One more", email: "more@bound.example" },
    });
    expect(api.status).toBe(403);
    expect(api.body.error).toBe(CONTACT_LIMIT_MESSAGE);
    expect(await contactsOf(debtor.id)).toHaveLength(MAX_OTHER_CONTACTS);
  });

  it("the debtor form and API set the primary contact's name; the API keeps it when absent", async () => {
    const owner = await signIn(uniqueEmail("contacts-primary"));
    const added = await apiJson("POST", "/debtors/add", {
      cookie: owner.cookie,
      json: { full_name: "Acme Ltd", email: uniqueEmail("acme"), debt: 10, contact_name: "Jane", contact_role: "AP" },
    });
    expect(added.body.data).toMatchObject({ contact_name: "Jane", contact_role: "AP" });
    const id = added.body.data.id as number;
    const edit = { id, full_name: "Acme Ltd", email: added.body.data.email, debt: 10 };
    await apiJson("PUT", "/debtors/edit", { cookie: owner.cookie, json: edit });
    expect(await debtorRow(id)).toMatchObject({ contact_name: "Jane", contact_role: "AP" });
    // The form always sends the field: blank clears it.
    const form = await formAction(
      "/debtors-list",
      { intent: "debtor-edit", ...edit, id: String(id), debt: "10", kind: "company", contact_name: "" },
      owner.cookie,
    );
    expect(form.status, JSON.stringify(form.data)).toBe(200);
    expect(await debtorRow(id)).toMatchObject({ contact_name: null, contact_role: null });
  });
});

describe("the CSV import's contact person column", () => {
  it("imports a contact person as the new debtor's primary contact", async () => {
    const owner = await signIn(uniqueEmail("contacts-csv"));
    const email = uniqueEmail("csv-acme");
    const form = new FormData();
    form.set("intent", "import-confirm");
    form.set("csv", `Name,Email,Amount,Contact person\nAcme GmbH,${email},10,Jana Klein\n`);
    const res = await postMultipart("/debtors/import.data", form, owner.cookie);
    const decoded = await decodeTurbo(res);
    expect(res.status, JSON.stringify(decoded?.data)).toBe(200);
    const row = await env.DB.prepare("SELECT contact_name FROM debtors WHERE owner_id = ? AND email = ?")
      .bind(owner.userId, email.toLowerCase())
      .first<{ contact_name: string | null }>();
    expect(row).toEqual({ contact_name: "Jana Klein" });
  });
});

describe("reminders with contacts", () => {
  it("greets the primary contact by name and CCs only the contacts copied", async () => {
    const s = await sendingSetup();
    expect(await fireAndSend(s.scheduleId, AT)).toMatchObject({ kind: "done", status: "sent" });
    const [sent] = await sentTo(s.debtor.email);
    expect(sent!.body.to).toEqual([s.debtor.email.toLowerCase()]);
    expect(sent!.body.cc).toEqual([s.copied]);
    expect(String(sent!.body.text)).toContain("Hi Jane,");
    // The statement is still the debtor's.
    expect(String(sent!.body.text)).not.toContain("Hi Acme Ltd,");
  });

  it("greets the debtor as before without a contact name, and sends no cc without contacts", async () => {
    const user = await makeUser();
    const debtor = await makeDebtor(user.id, { fullName: "Acme Ltd", timeZone: "UTC" });
    const scheduleId = await makeSchedule(user.id, debtor.id, { frequency: "daily", timeZone: "UTC" });
    await setSchedule(scheduleId, { next_run_at: AT });
    expect(await fireAndSend(scheduleId, AT)).toMatchObject({ status: "sent" });
    const [sent] = await sentTo(debtor.email);
    expect(sent!.body.cc).toBeUndefined();
    expect(String(sent!.body.text)).toContain("Hi Acme Ltd,");
  });

  it("a copied contact that opts out on the page gets no more copies; the debtor's reminders go on", async () => {
    const s = await sendingSetup();
    const url = await optOutLink(db(), readConfig(env), { id: s.debtor.id, ownerId: s.user.id, optOutKey: null });
    const path = new URL(url).pathname;
    const page = await visibleText(await get(path));
    expect(page).toContain("Stop only the copies");
    expect(page).not.toContain(s.copied);
    const res = await postForm(path, { intent: "stop-copy", contact: String(s.copiedId) });
    expect(res.status).toBe(200);
    expect(await visibleText(res)).toContain("No more copies go to");
    expect((await debtorRow(s.debtor.id))?.status).toBe("active");

    expect(await fireAndSend(s.scheduleId, AT)).toMatchObject({ status: "sent" });
    const [sent] = await sentTo(s.debtor.email);
    expect(sent!.body.cc).toBeUndefined();
    const events = await env.DB.prepare("SELECT type, detail FROM debtor_events WHERE debtor_id = ?")
      .bind(s.debtor.id)
      .all<{ type: string; detail: string }>();
    expect(events.results).toContainEqual({ type: "contact_opted_out", detail: s.copied });
  });

  it("an opt-out after the batch was built drops the copy at the next attempt (the per-attempt re-check)", async () => {
    const s = await sendingSetup();
    const fired = await fireSchedule(env, s.scheduleId, AT);
    expect(fired.kind).toBe("queued");
    const job = (fired as { job: MailQueueMessage }).job;
    // The provider fails the first attempt without an answer; the batch is retried later.
    await programResend(s.debtor.email.toLowerCase(), [500]);
    const first = await consumeJobs([job], { now: AT });
    const [attempt] = await resendRequests(s.debtor.email);
    expect(attempt!.body.cc).toEqual([s.copied]);
    await env.DB.prepare("INSERT INTO opt_outs (owner_id, email) VALUES (?, ?)").bind(s.user.id, s.copied).run();
    const retry = first.requeued.find((r) => "batchKey" in r.body);
    expect(retry).toBeDefined();
    await consumeJobs([retry!.body], { now: AT + 60_000 });
    const attempts = await resendRequests(s.debtor.email);
    expect(attempts.at(-1)!.body.cc).toBeUndefined();
  });

  it("the primary's one-click opt-out stops the debtor, copies included", async () => {
    const s = await sendingSetup();
    const url = await optOutLink(db(), readConfig(env), { id: s.debtor.id, ownerId: s.user.id, optOutKey: null });
    const res = await request(new URL(url).pathname, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "CF-Connecting-IP": uniqueIp() },
      body: "List-Unsubscribe=One-Click",
    });
    expect(res.status).toBe(200);
    expect((await debtorRow(s.debtor.id))?.status).toBe("opted_out");
    const outcome = await fireAndSend(s.scheduleId, AT);
    expect(outcome.kind === "done" ? outcome.status : outcome.kind).not.toBe("sent");
    expect(await sentTo(s.debtor.email)).toEqual([]);
  });

  it("CCs every debtor's contacts when a batch carries many debtors (each statement under 100 bound values)", async () => {
    // Two accounts on the top plan (at most 50 reminders a day each): 60 deliveries in one call,
    // more than one 50-id slice of the consumer's read.
    const users = [await makeUser(), await makeUser()];
    for (const u of users) await setPlan(u.id, "aggressive");
    const jobs: MailQueueMessage[] = [];
    const debtors: { email: string; cc: string[] }[] = [];
    for (let i = 0; i < 60; i++) {
      const user = users[i % 2]!;
      const debtor = await makeDebtor(user.id, { timeZone: "UTC", email: uniqueEmail(`many${i}`) });
      const cc = [uniqueEmail(`cc${i}a`), uniqueEmail(`cc${i}b`)].map((e) => e.toLowerCase());
      for (const address of cc) await addContactRow(user.id, debtor.id, address);
      const scheduleId = await makeSchedule(user.id, debtor.id, { frequency: "daily", timeZone: "UTC" });
      await setSchedule(scheduleId, { next_run_at: AT });
      const fired = await fireSchedule(env, scheduleId, AT);
      expect(fired.kind).toBe("queued");
      jobs.push((fired as { job: MailQueueMessage }).job);
      debtors.push({ email: debtor.email, cc });
    }
    await consumeJobs(jobs, { now: AT });
    for (const d of debtors) {
      const [sent] = await sentTo(d.email);
      expect(sent?.body.cc, d.email).toEqual(d.cc);
    }
  });
});

/** Signs a Resend event as Svix does (as tests/integration/webhooks.test.ts). */
async function sendEvent(event: unknown) {
  const id = `msg_contacts_${crypto.randomUUID()}`;
  const at = new Date();
  const body = JSON.stringify(event);
  const raw = Uint8Array.from(atob(SECRET.replace(/^whsec_/, "")), (c) => c.charCodeAt(0));
  const key = await crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(
    await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${id}.${Math.floor(at.getTime() / 1000)}.${body}`)),
  );
  const headers = new Headers({
    "Content-Type": "application/json",
    "svix-id": id,
    "svix-timestamp": String(Math.floor(at.getTime() / 1000)),
    "svix-signature": `v1,${btoa(String.fromCharCode(...mac))}`,
  });
  return request("/webhooks/resend", { method: "POST", headers, body });
}

describe("bounces per address", () => {
  async function sentReminder() {
    const s = await sendingSetup();
    expect(await fireAndSend(s.scheduleId, AT)).toMatchObject({ status: "sent" });
    const row = await env.DB.prepare("SELECT provider_id FROM deliveries WHERE schedule_id = ?")
      .bind(s.scheduleId)
      .first<{ provider_id: string }>();
    return { ...s, providerId: row!.provider_id };
  }
  const bounce = (emailId: string, to: string[], message: string) => ({
    type: "email.bounced",
    created_at: new Date().toISOString(),
    data: { email_id: emailId, to, bounce: { type: "Permanent", subType: "General", message } },
  });

  it("a bounce naming a copied contact marks that contact, not the debtor, and the next reminder goes without it", async () => {
    const s = await sentReminder();
    const res = await sendEvent(
      bounce(s.providerId, [s.debtor.email], `550 5.1.1 <${s.copied}>: Recipient address rejected: user unknown`),
    );
    expect(res.status).toBe(200);
    expect((await debtorRow(s.debtor.id))?.status).toBe("active");
    const contact = (await contactsOf(s.debtor.id)).find((c) => c.email === s.copied);
    expect(contact?.bounced_at).not.toBeNull();
    expect(await fireAndSend(s.scheduleId, AT + DAY)).toMatchObject({ status: "sent" });
    const sent = await sentTo(s.debtor.email);
    expect(sent).toHaveLength(2);
    expect(sent[1]!.body.cc).toBeUndefined();
  });

  it("a bounce that names no copy is the debtor's own address, as before: the debtor bounces", async () => {
    const s = await sentReminder();
    await sendEvent(bounce(s.providerId, [s.debtor.email], "550 5.1.1 The email account does not exist."));
    expect((await debtorRow(s.debtor.id))?.status).toBe("bouncing");
    expect((await contactsOf(s.debtor.id)).every((c) => c.bounced_at === null)).toBe(true);
  });

  it("changing a bounced contact's address clears its bounce", async () => {
    const s = await sentReminder();
    await sendEvent(bounce(s.providerId, [s.debtor.email], `550 <${s.copied}> unknown`));
    const entity = await import("~/debtors/contacts.server");
    await entity.updateContact(db(), s.user.id, s.copiedId, {
      name: "Carl Copy",
      email: "carl.fixed@example.com",
      role: null,
      cc: true,
    });
    expect((await contactsOf(s.debtor.id)).find((c) => c.id === s.copiedId)?.bounced_at).toBeNull();
  });
});

describe("replies from a copied contact", () => {
  it("are stored as the debtor's reply, with the contact's address", async () => {
    const config = { OPT_OUT_SECRET: "test-opt-out-secret", INBOUND_DOMAIN: "inbound.localhost" };
    const s = await sendingSetup();
    const row = (await debtorRow(s.debtor.id))!;
    const to = (await replyAddress(db(), config, { id: s.debtor.id, ownerId: s.user.id, optOutKey: row.opt_out_key }))!;
    const raw = [
      `From: Carl Copy <${s.copied}>`,
      `To: ${to}`,
      "Subject: Re: Payment reminder",
      "Date: Tue, 24 Nov 2026 09:12:44 +0000",
      "MIME-Version: 1.0",
      "Content-Type: text/plain; charset=utf-8",
      "",
      "Our accounts team pays on Friday.",
      "",
    ].join("\r\n");
    const res = await request(`/dev/inbound?to=${encodeURIComponent(to)}`, {
      method: "POST",
      headers: { Origin: ORIGIN, "Content-Type": "message/rfc822" },
      body: raw,
    });
    expect(res.status).toBeLessThan(300);
    const reply = await env.DB.prepare("SELECT from_address, text FROM debtor_replies WHERE debtor_id = ?")
      .bind(s.debtor.id)
      .first<{ from_address: string; text: string }>();
    expect(reply).toMatchObject({ from_address: s.copied });
    expect(reply?.text).toContain("Our accounts team pays on Friday.");
  });
});
