import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { AGING_BUCKETS, type AgingBucketKey, agingBucket } from "~/domain/aging";
import { type ComputedCharge, computeCharges } from "~/domain/late-charges";
import { RATES } from "~/domain/late-charges/test-rates";
import { addDays } from "~/domain/promise";
import { localDateString } from "~/domain/schedule-time";
import { loadMoney } from "~/ledger/money.server";
import { portalLink } from "~/links/debtor-pages.server";
import { readConfig } from "~/platform/config.server";
import { decodeTurbo } from "./data-helpers";
import { fireAndSend } from "./engine-helpers";
import { makeDebtor, makeSchedule, makeSignedInUser, makeUser, setSchedule } from "./fixtures";
import { get, outboxFor, SESSION_COOKIE, visibleText } from "./helpers";

/**
 * Late-payment charges where they are shown (decisions/067): the reminder's statement as the mail
 * queue's consumer builds and sends it, the debtor's page, and the money figures, whose totals must
 * equal the ledger's rows. The `charges` rows are written straight into D1 here, as the accrual
 * writes them (their bases from the rules themselves).
 */

const db = () => getDb(env.DB);
const MINUTE = 60_000;

/** £4,000.00 due 30 September 2026, 59 days late on 28 November, under the UK Act (4.75% + 8%). */
function ukCharges(): ComputedCharge[] {
  const out = computeCharges(
    { rule: "gb", compensation: true, contract: null },
    { currency: "GBP", amountCents: 400_000, dueOn: "2026-09-30", payments: [], pauses: [] },
    "2026-11-28",
    [...RATES, { series: "boe_base", effectiveOn: "2026-06-30", rateBp: 475 }],
  );
  if ("error" in out) throw new Error(`no rate: ${out.series}`);
  return out.charges;
}

async function makeInvoice(
  ownerId: string,
  debtorId: number,
  f: { number: string; amountCents: number; paidCents?: number; currency?: string; dueOn: string; status?: string },
) {
  const row = await env.DB.prepare(
    "INSERT INTO invoices (owner_id, debtor_id, number, amount_cents, paid_cents, currency, issued_on, due_on, status) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
  )
    .bind(
      ownerId,
      debtorId,
      f.number,
      f.amountCents,
      f.paidCents ?? 0,
      f.currency ?? "GBP",
      addDays(f.dueOn, -30) ?? f.dueOn,
      f.dueOn,
      f.status ?? "open",
    )
    .first<{ id: number }>();
  return row!.id;
}

interface ChargeRow {
  ownerId: string;
  debtorId: number;
  invoiceId: number;
  kind: "interest" | "compensation" | "fee";
  currency?: string;
  amountCents: number;
  paidCents?: number;
  basis?: unknown;
  waived?: boolean;
}

const chargeInsert = (c: ChargeRow) =>
  env.DB.prepare(
    "INSERT INTO charges (owner_id, debtor_id, invoice_id, kind, currency, amount_cents, paid_cents, basis, accrued_through, waived_at, waived_by, waived_cents) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
  ).bind(
    c.ownerId,
    c.debtorId,
    c.invoiceId,
    c.kind,
    c.currency ?? "GBP",
    c.amountCents,
    c.paidCents ?? 0,
    JSON.stringify(c.basis ?? { v: 1 }),
    "2026-11-28",
    c.waived ? Date.now() : null,
    c.waived ? "owner@example.com" : null,
    c.waived ? c.amountCents - (c.paidCents ?? 0) : null,
  );

async function insertCharge(c: ChargeRow) {
  return (await chargeInsert(c).first<{ id: number }>())!.id;
}

/**
 * A debtor (a company, in GBP) who owes INV-1 (£4,000.00, with its statutory interest and a
 * compensation the user waived) and INV-2 (£500.00, no charge), and paid PAID-1 in full but still
 * owes its compensation, £32.00 of which was paid; and another debtor of the same owner with a
 * charge of its own.
 */
async function debtorWithCharges(ownerId: string) {
  const [interest, compensation] = ukCharges();
  if (!interest || !compensation) throw new Error("expected interest and compensation");
  const debtor = await makeDebtor(ownerId, {
    invoice: false,
    fullName: "Acme Trading Ltd",
    currency: "GBP",
    debtCents: 450_000,
  });
  await env.DB.prepare("UPDATE debtors SET kind = 'company' WHERE id = ?").bind(debtor.id).run();
  const tag = debtor.id;
  const inv1 = await makeInvoice(ownerId, debtor.id, {
    number: `INV-1-${tag}`,
    amountCents: 400_000,
    dueOn: "2026-09-30",
  });
  await makeInvoice(ownerId, debtor.id, { number: `INV-2-${tag}`, amountCents: 50_000, dueOn: "2026-11-20" });
  const paid = await makeInvoice(ownerId, debtor.id, {
    number: `PAID-1-${tag}`,
    amountCents: 100_000,
    paidCents: 100_000,
    dueOn: "2026-08-31",
    status: "paid",
  });
  await insertCharge({
    ownerId,
    debtorId: debtor.id,
    invoiceId: inv1,
    kind: "interest",
    amountCents: interest.cents,
    basis: interest.basis,
  });
  // Waived by the user: not owed, so no line of it anywhere the debtor looks.
  await insertCharge({
    ownerId,
    debtorId: debtor.id,
    invoiceId: inv1,
    kind: "compensation",
    amountCents: 7_001,
    basis: compensation.basis,
    waived: true,
  });
  await insertCharge({
    ownerId,
    debtorId: debtor.id,
    invoiceId: paid,
    kind: "compensation",
    amountCents: 7_000,
    paidCents: 3_200,
    basis: compensation.basis,
  });
  const other = await makeDebtor(ownerId, { fullName: "Other Ltd", currency: "GBP", debtCents: 10_000 });
  await insertCharge({ ownerId, debtorId: other.id, invoiceId: other.invoiceId, kind: "fee", amountCents: 9_876 });
  return { debtor, tag, interest, owedCharges: interest.cents + 7_000 - 3_200 };
}

const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, " ");

describe("a reminder's statement with charges, through the mail queue's consumer", () => {
  it("lists each owed charge under its invoice with its legal basis, the paid invoice's apart, and totals invoices and charges apart", async () => {
    const user = await makeUser("Sally Sender");
    const s = await debtorWithCharges(user.id);
    const id = await makeSchedule(user.id, s.debtor.id, { frequency: "daily", timeZone: "UTC" });
    // Due a minute ago: the debtor's zone (makeDebtor's) is in its daytime now.
    const due = Math.floor((Date.now() - MINUTE) / 1000) * 1000;
    await setSchedule(id, { next_run_at: due });
    const outcome = await fireAndSend(id, due);
    expect(outcome).toMatchObject({ kind: "done", status: "sent" });
    const [mail] = await outboxFor(s.debtor.email);
    if (!mail) throw new Error("no reminder delivered");
    const html = plain(mail.html.replace(/&#x27;|&#39;/g, "'").replace(/&amp;/g, "&"));
    const text = plain(mail.text);
    const pounds = (cents: number) => `£${(cents / 100).toLocaleString("en-US", { minimumFractionDigits: 2 })}`;
    for (const part of [html, text]) {
      expect(part).toContain("Statutory interest under the Late Payment of Commercial Debts (Interest) Act 1998");
      expect(part).toContain("12.75%");
      expect(part).toContain("Charges still owed on paid invoices");
      expect(part).toContain(`invoice PAID-1-${s.tag}`);
      expect(part).toContain("£32.00 of £70.00 paid");
      expect(part).toContain(pounds(s.interest.cents));
      // Invoices £4,500.00, the charges still owed, and both.
      expect(part).toContain(pounds(s.owedCharges));
      expect(part).toContain(pounds(450_000 + s.owedCharges));
      // The waived compensation (£70.01) and the other debtor's fee (£98.76) are not on it.
      expect(part).not.toContain("£70.01");
      expect(part).not.toContain("£98.76");
    }
    // The text part lays the totals out as the table's rows.
    expect(text).toMatch(/Invoices\s+£4,500\.00/);
    expect(text).toMatch(new RegExp(`Charges\\s+${pounds(s.owedCharges).replace(/[.$£]/g, "\\$&")}`));
    expect(text).toMatch(new RegExp(`Total\\s+${pounds(450_000 + s.owedCharges).replace(/[.$£]/g, "\\$&")}`));
  });
});

describe("a debtor who owes only charges", () => {
  it("their page lists the charges of the paid invoice, offers bank transfer in its currency, and never says nothing is open", async () => {
    const user = await makeSignedInUser("Sally Sender");
    await env.DB.prepare(
      "INSERT INTO bank_accounts (owner_id, currency, holder, iban, bic) VALUES (?, 'EUR', 'Sally Sender', 'DE89370400440532013000', 'COBADEFFXXX')",
    )
      .bind(user.id)
      .run();
    const debtor = await makeDebtor(user.id, {
      invoice: false,
      fullName: "Paid Up GmbH",
      currency: "EUR",
      debtCents: 0,
    });
    const paid = await makeInvoice(user.id, debtor.id, {
      number: `DONE-${debtor.id}`,
      amountCents: 50_000,
      paidCents: 50_000,
      currency: "EUR",
      dueOn: "2026-08-31",
      status: "paid",
    });
    await insertCharge({
      ownerId: user.id,
      debtorId: debtor.id,
      invoiceId: paid,
      kind: "compensation",
      currency: "EUR",
      amountCents: 4_000,
    });
    const url = await portalLink(db(), readConfig(env), { id: debtor.id, ownerId: user.id, optOutKey: null });
    const text = plain(await visibleText(await get(new URL(url).pathname)));
    expect(text).toContain("Charges still owed on paid invoices");
    expect(text).toContain(`invoice DONE-${debtor.id}`);
    expect(text).toMatch(/Charges€40\.00/);
    expect(text).toContain("DE89");
    expect(text).not.toContain("Nothing is open");
  });
});

describe("the e-mail preview with charges", () => {
  it("shows the chosen debtor's charges as the reminder would, another user's debtor never", async () => {
    const user = await makeSignedInUser("Sally Sender");
    const s = await debtorWithCharges(user.id);
    const cookie = `${SESSION_COOKIE}=${user.token}`;
    const res = await get(`/schedule/preview?template=initial&tone=1&debtor_id=${s.debtor.id}`, { cookie });
    expect(res.status).toBe(200);
    const text = plain(await visibleText(res));
    expect(text).toContain("Statutory interest under the Late Payment of Commercial Debts (Interest) Act 1998");
    expect(text).toContain(`invoice PAID-1-${s.tag}`);
    // Another user's debtor: the sample, without their charges.
    const stranger = await makeSignedInUser("Stan Stranger");
    const theirs = plain(
      await visibleText(
        await get(`/schedule/preview?template=initial&tone=1&debtor_id=${s.debtor.id}`, {
          cookie: `${SESSION_COOKIE}=${stranger.token}`,
        }),
      ),
    );
    expect(theirs).not.toContain("Late Payment of Commercial Debts");
    expect(theirs).not.toContain(`PAID-1-${s.tag}`);
  });
});

describe("the debtor's page with charges", () => {
  it("shows owed and paid charges with their basis, those of paid invoices, and the totals apart; a waived one is no line", async () => {
    const user = await makeSignedInUser("Sally Sender");
    const s = await debtorWithCharges(user.id);
    // Paid online on the user's connected account: Pay asks for the invoices and the charges owed.
    const now = Date.now();
    await env.DB.prepare(
      "INSERT INTO stripe_accounts (user_id, account_id, charges_enabled, details_submitted, livemode, connected_at, updated_at) VALUES (?, ?, 1, 1, 0, ?, ?)",
    )
      .bind(user.id, `acct_test_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`, now, now)
      .run();
    const url = await portalLink(db(), readConfig(env), { id: s.debtor.id, ownerId: user.id, optOutKey: null });
    const res = await get(new URL(url).pathname);
    expect(res.status).toBe(200);
    const text = plain(await visibleText(res));
    expect(text).toContain("Statutory interest under the Late Payment of Commercial Debts (Interest) Act 1998");
    expect(text).toContain("Charges still owed on paid invoices");
    expect(text).toContain(`Compensation for recovery costs, invoice PAID-1-${s.tag}`);
    expect(text).toContain("£32.00 of £70.00 paid");
    expect(text).toMatch(/Invoices£4,500\.00/);
    expect(text).not.toContain("£70.01");
    expect(text).not.toContain("£98.76");
    const pounds = (cents: number) => `£${(cents / 100).toLocaleString("en-US", { minimumFractionDigits: 2 })}`;
    expect(text).toContain(`Pay ${pounds(450_000 + s.owedCharges)}`);
    expect(text).toContain(`Pay invoice INV-1-${s.tag} only (${pounds(400_000 + s.interest.cents)})`);
    expect(text).toContain(`Pay invoice INV-2-${s.tag} only (£500.00)`);
    // The statement PDF is made with them.
    const pdf = await get(`${new URL(url).pathname}/statement.pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("Content-Type")).toContain("application/pdf");
  });
});

// The money figures against the ledger ---------------------------------------------------------

type Sums = Map<string, number>;
const add = (m: Sums, key: string, cents: number) => m.set(key, (m.get(key) ?? 0) + cents);

/**
 * An account with many rows: 130 invoices over three debtors in USD and EUR, due from 200 days ago
 * to 30 days ahead, open, partly paid, paid, disputed and void; two charges on most of them, some
 * paid, some partly paid, some waived; and this month's payments, part on invoices, part on charges.
 * Returns what the figures must be, summed here from what was written.
 */
async function manyRows(ownerId: string, today: string) {
  const expected = {
    principal: new Map() as Sums,
    charges: new Map() as Sums,
    chargeBuckets: new Map() as Sums,
    chargeCount: new Map() as Sums,
    collected: new Map() as Sums,
    chargesCollected: new Map() as Sums,
  };
  const debtorIds: number[] = [];
  for (const name of ["Alpha GmbH", "Beta BV", "Gamma SA"]) {
    debtorIds.push((await makeDebtor(ownerId, { invoice: false, fullName: name, debtCents: 0 })).id);
  }
  const statuses = ["open", "open", "paid", "disputed", "open", "void", "open"] as const;
  const chargeIds: { id: number; currency: string; debtorId: number; owed: number }[] = [];
  for (let n = 0; n < 130; n++) {
    const currency = n % 2 === 0 ? "USD" : "EUR";
    const debtorId = debtorIds[n % 3] ?? 0;
    const status = statuses[n % statuses.length] ?? "open";
    const amount = 10_000 + ((n * 7_919) % 90_000);
    const paid = status === "paid" ? amount : n % 5 === 0 && status === "open" ? Math.floor(amount / 3) : 0;
    const dueOn = addDays(today, 30 - ((n * 37) % 231)) ?? today;
    const invoiceId = await makeInvoice(ownerId, debtorId, {
      number: `M-${n}`,
      amountCents: amount,
      paidCents: paid,
      currency,
      dueOn,
      status,
    });
    if (status === "open" || status === "disputed") add(expected.principal, currency, amount - paid);
    if (n % 4 === 3) continue; // no charge on these
    const kinds = [
      { kind: "interest" as const, amount: 100 + ((n * 131) % 5_000) },
      { kind: "compensation" as const, amount: 4_000 },
    ];
    for (const [k, c] of kinds.entries()) {
      const waived = (n + k) % 6 === 0;
      const chargePaid = (n + k) % 5 === 0 ? c.amount : (n + k) % 5 === 1 ? Math.floor(c.amount / 2) : 0;
      const id = await insertCharge({
        ownerId,
        debtorId,
        invoiceId,
        kind: c.kind,
        currency,
        amountCents: c.amount,
        paidCents: chargePaid,
        waived,
      });
      const owed = waived || status === "void" ? 0 : c.amount - chargePaid;
      if (owed > 0) {
        add(expected.charges, currency, owed);
        add(expected.chargeCount, currency, 1);
        add(expected.chargeBuckets, `${currency}:${agingBucket(dueOn, today)}`, owed);
        chargeIds.push({ id, currency, debtorId, owed });
      }
    }
  }
  // This month's payments: each pays part of an open charge (a charge_allocation) and part of
  // principal (a payment_allocation on an open invoice of its currency).
  for (const [i, charge] of chargeIds.slice(0, 12).entries()) {
    const onCharge = Math.min(charge.owed, 500 + i * 10);
    const onInvoice = 1_000 + i;
    const payment = await env.DB.prepare(
      "INSERT INTO payments (owner_id, debtor_id, amount_cents, currency, paid_on, note) VALUES (?, ?, ?, ?, ?, '') RETURNING id",
    )
      .bind(ownerId, charge.debtorId, onCharge + onInvoice, charge.currency, today)
      .first<{ id: number }>();
    const invoice = await env.DB.prepare(
      "SELECT id FROM invoices WHERE owner_id = ? AND debtor_id = ? AND currency = ? AND status = 'open' AND amount_cents - paid_cents > ? LIMIT 1",
    )
      .bind(ownerId, charge.debtorId, charge.currency, onInvoice)
      .first<{ id: number }>();
    if (!invoice) throw new Error("no open invoice to pay");
    await env.DB.batch([
      env.DB.prepare("INSERT INTO charge_allocations (payment_id, charge_id, amount_cents) VALUES (?, ?, ?)").bind(
        payment!.id,
        charge.id,
        onCharge,
      ),
      env.DB.prepare("UPDATE charges SET paid_cents = paid_cents + ? WHERE id = ?").bind(onCharge, charge.id),
      env.DB.prepare("INSERT INTO payment_allocations (payment_id, invoice_id, amount_cents) VALUES (?, ?, ?)").bind(
        payment!.id,
        invoice.id,
        onInvoice,
      ),
      env.DB.prepare("UPDATE invoices SET paid_cents = paid_cents + ? WHERE id = ?").bind(onInvoice, invoice.id),
    ]);
    add(expected.charges, charge.currency, -onCharge);
    const row = await env.DB.prepare(
      "SELECT due_on FROM invoices WHERE id = (SELECT invoice_id FROM charges WHERE id = ?)",
    )
      .bind(charge.id)
      .first<{ due_on: string }>();
    add(expected.chargeBuckets, `${charge.currency}:${agingBucket(row!.due_on, today)}`, -onCharge);
    if (onCharge === charge.owed) add(expected.chargeCount, charge.currency, -1);
    add(expected.principal, charge.currency, -onInvoice);
    add(expected.collected, charge.currency, onInvoice);
    add(expected.chargesCollected, charge.currency, onCharge);
  }
  return expected;
}

const sorted = (m: Sums) =>
  [...m]
    .filter(([, cents]) => cents !== 0)
    .map(([currency, cents]) => ({ currency, cents }))
    .sort((a, b) => a.currency.localeCompare(b.currency));

describe("the money figures show principal and charges apart", () => {
  it("the dashboard's totals equal the ledger's: invoices and charges summed here over >100 rows in two currencies, another account's not counted", async () => {
    const zone = "UTC";
    const user = await makeSignedInUser("Mona Money");
    const today = localDateString(Date.now(), zone);
    const expected = await manyRows(user.id, today);
    // Another account's rows, in the same currencies: none of them may count.
    const stranger = await makeUser("Stan Stranger");
    await manyRows(stranger.id, today);

    const money = await loadMoney(db(), user.id, today);
    expect(money.aging.map((r) => ({ currency: r.currency, cents: r.outstandingCents }))).toEqual(
      sorted(expected.principal),
    );
    expect(money.charges.map((r) => ({ currency: r.currency, cents: r.outstandingCents }))).toEqual(
      sorted(expected.charges),
    );
    expect(money.charges.map((r) => ({ currency: r.currency, cents: r.invoices }))).toEqual(
      sorted(expected.chargeCount),
    );
    for (const row of money.charges) {
      for (const { key } of AGING_BUCKETS) {
        expect(row[key as AgingBucketKey], `${row.currency} ${key}`).toBe(
          expected.chargeBuckets.get(`${row.currency}:${key}`) ?? 0,
        );
      }
    }
    expect(money.collected).toEqual(sorted(expected.collected));
    expect(money.chargesCollected).toEqual(sorted(expected.chargesCollected));

    // The dashboard's loader says the same, and the page shows the charges' figures.
    const cookie = `${SESSION_COOKIE}=${user.token}; tz=${zone}`;
    const data = (await decodeTurbo(await get("/dashboard.data", { cookie })))["routes/dashboard"].data;
    expect(data.money.charges).toEqual(money.charges);
    expect(data.money.chargesCollected).toEqual(money.chargesCollected);
    const page = await (await get("/dashboard", { cookie })).text();
    expect(page).toContain('data-testid="money-charges-outstanding"');
    expect(page).toContain('data-testid="money-charges-collected"');
    expect(page).toContain("USD charges");

    // The aging CSV: the charges' columns, per currency, equal the same sums.
    const csv = (await (await get("/report-aging.csv", { cookie })).text()).replace(/^\uFEFF/, "").split("\r\n");
    const header = csv[0]?.split(",") ?? [];
    expect(header.slice(9)).toEqual([
      "Charges not yet due",
      "Charges 1–30 days overdue",
      "Charges 31–60 days overdue",
      "Charges 61–90 days overdue",
      "Charges over 90 days overdue",
      "Charges overdue",
      "Charges outstanding",
      "Outstanding with charges",
      "As of",
    ]);
    for (const line of csv.slice(1)) {
      const cells = line.split(",");
      const currency = cells[0] ?? "";
      expect(Math.round(Number(cells[15]) * 100), `${currency} charges outstanding`).toBe(
        expected.charges.get(currency) ?? 0,
      );
      expect(Math.round(Number(cells[16]) * 100), `${currency} with charges`).toBe(
        (expected.charges.get(currency) ?? 0) + (expected.principal.get(currency) ?? 0),
      );
    }
    expect(csv.slice(1).map((l) => l.split(",")[0])).toEqual(["EUR", "USD"]);
  });

  it("the debtors CSV has each debtor's charges owed and paid apart from the debt", async () => {
    const user = await makeSignedInUser("Cora Csv");
    const s = await debtorWithCharges(user.id);
    const text = await (await get("/debtors.csv", { cookie: `${SESSION_COOKIE}=${user.token}` })).text();
    const row = text.split("\r\n").find((l) => l.startsWith("Acme Trading Ltd,"));
    // Owed: the interest and what is left of the paid invoice's compensation; paid: £32.00.
    expect(row?.split(",").slice(-3)).toEqual([String(s.owedCharges / 100), "32", ""]);
  });
});
