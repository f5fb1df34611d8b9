import { Hono } from "hono";
import type { XeroContact, XeroInvoice } from "../mapping";
import { xeroTime } from "../mapping";
import { STANDIN_CLIENT_ID, STANDIN_CLIENT_SECRET } from "./config";
import {
  addStandInPayment,
  deleteObject,
  getObject,
  listObjects,
  putObject,
  putObjectOnce,
  sha256,
  type XeroAccount,
} from "./store.server";

/**
 * The local Xero stand-in's identity and Accounting API (decisions/060), served inside the Worker:
 * the one Xero client's fetch hands it its requests when no XERO_CLIENT_ID is set (development and
 * test). It keeps Xero's shapes for what Dunly reads: the token endpoint (authorization code with
 * PKCE, rotating refresh tokens), revocation, /connections, and Contacts, Invoices (100 a page,
 * If-Modified-Since, `where` on the type, Statuses, IDs) and Payments. A 'fault' row makes the API
 * answer 429 with Retry-After, as Xero does past its limits.
 */
export const xeroStandInApi = new Hono<{ Bindings: Env }>();

const ACCESS_SECONDS = 1800;
const PAGE = 100;

interface Grant {
  tenantId: string;
  expiresAt?: number;
  /** The scopes consented to, space-separated (a grant made before the stand-in kept them: none). */
  scope?: string;
}
interface CodeGrant {
  tenantId: string;
  challenge: string;
  redirectUri: string;
  expiresAt: number;
  scope?: string;
}

const tokenError = (error: string) => Response.json({ error }, { status: 400 });

async function issue(env: Env, tenantId: string, now: number, scope = "") {
  const access = `standin-access-${crypto.randomUUID()}`;
  const refresh = `standin-refresh-${crypto.randomUUID()}`;
  await putObject(env, "access", await sha256(access), tenantId, {
    tenantId,
    expiresAt: now + ACCESS_SECONDS * 1000,
    scope,
  });
  await putObject(env, "refresh", await sha256(refresh), tenantId, { tenantId, scope });
  return Response.json({
    id_token: "",
    access_token: access,
    expires_in: ACCESS_SECONDS,
    token_type: "Bearer",
    refresh_token: refresh,
    scope,
  });
}

function clientOk(header: string | undefined) {
  return header === `Basic ${btoa(`${STANDIN_CLIENT_ID}:${STANDIN_CLIENT_SECRET}`)}`;
}

const b64url = (bytes: ArrayBuffer) =>
  btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");

xeroStandInApi.post("/connect/token", async (c) => {
  if (!clientOk(c.req.header("Authorization"))) return Response.json({ error: "invalid_client" }, { status: 401 });
  const form = new URLSearchParams(await c.req.text());
  const now = Date.now();
  if (form.get("grant_type") === "authorization_code") {
    const codeKey = await sha256(form.get("code") ?? "");
    const found = await getObject<CodeGrant>(c.env, "code", codeKey);
    if (!found || found.data.expiresAt < now) return tokenError("invalid_grant");
    await deleteObject(c.env, codeKey);
    const verifier = form.get("code_verifier") ?? "";
    const challenge = b64url(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
    if (challenge !== found.data.challenge || form.get("redirect_uri") !== found.data.redirectUri) {
      return tokenError("invalid_grant");
    }
    return issue(c.env, found.data.tenantId, now, found.data.scope);
  }
  if (form.get("grant_type") === "refresh_token") {
    const key = await sha256(form.get("refresh_token") ?? "");
    const found = await getObject<Grant>(c.env, "refresh", key);
    // Rotation: a refresh token works once.
    if (!found || !(await deleteObject(c.env, key))) return tokenError("invalid_grant");
    return issue(c.env, found.data.tenantId, now, found.data.scope);
  }
  return tokenError("unsupported_grant_type");
});

xeroStandInApi.post("/connect/revocation", async (c) => {
  if (!clientOk(c.req.header("Authorization"))) return Response.json({ error: "invalid_client" }, { status: 401 });
  const form = new URLSearchParams(await c.req.text());
  const key = await sha256(form.get("token") ?? "");
  const found = await getObject<Grant>(c.env, "refresh", key);
  if (found) await deleteObject(c.env, key);
  return new Response(null, { status: 200 });
});

/** The grant of the request's bearer token, or the answer refusing it. */
async function bearer(c: { env: Env; req: { header(name: string): string | undefined } }) {
  const token = /^Bearer (.+)$/.exec(c.req.header("Authorization") ?? "")?.[1] ?? "";
  const found = await getObject<Grant>(c.env, "access", await sha256(token));
  if (!found || (found.data.expiresAt ?? 0) < Date.now()) {
    return { refused: Response.json({ Title: "Unauthorized", Status: 401, Detail: "TokenExpired" }, { status: 401 }) };
  }
  return { tenantId: found.data.tenantId, scopes: (found.data.scope ?? "").split(" ") };
}

xeroStandInApi.get("/connections", async (c) => {
  const auth = await bearer(c);
  if ("refused" in auth) return auth.refused;
  const tenant = await getObject<{ tenantId: string; connectionId: string; tenantName: string }>(
    c.env,
    "tenant",
    auth.tenantId,
  );
  if (!tenant) return c.json([]);
  return c.json([
    {
      id: tenant.data.connectionId,
      authEventId: crypto.randomUUID(),
      tenantId: tenant.data.tenantId,
      tenantType: "ORGANISATION",
      tenantName: tenant.data.tenantName,
      createdDateUtc: new Date().toISOString(),
      updatedDateUtc: new Date().toISOString(),
    },
  ]);
});

xeroStandInApi.delete("/connections/:id", async (c) => {
  const auth = await bearer(c);
  if ("refused" in auth) return auth.refused;
  return new Response(null, { status: 204 });
});

/** The Accounting API's checks: the token, the tenant header, and a fault a test asked for. */
xeroStandInApi.use("/api.xro/2.0/*", async (c, next) => {
  const auth = await bearer(c);
  if ("refused" in auth) return auth.refused;
  if (c.req.header("xero-tenant-id") !== auth.tenantId) {
    return c.json({ Type: null, Title: "Forbidden", Status: 403, Detail: "AuthenticationUnsuccessful" }, 403);
  }
  const fault = await getObject<{ remaining: number; retryAfter: number; problem?: string }>(
    c.env,
    "fault",
    `fault:${auth.tenantId}`,
  );
  if (fault && fault.data.remaining > 0) {
    await putObject(c.env, "fault", `fault:${auth.tenantId}`, auth.tenantId, {
      ...fault.data,
      remaining: fault.data.remaining - 1,
    });
    return new Response(null, {
      status: 429,
      headers: { "Retry-After": String(fault.data.retryAfter), "X-Rate-Limit-Problem": fault.data.problem ?? "minute" },
    });
  }
  await next();
});

const envelope = (key: string, items: unknown[]) => ({
  Id: crypto.randomUUID(),
  Status: "OK",
  ProviderName: "Dunly local stand-in",
  DateTimeUTC: `/Date(${Date.now()})/`,
  [key]: items,
});

function modifiedSince(header: string | undefined) {
  if (!header) return Number.NEGATIVE_INFINITY;
  const ms = xeroTime(header);
  return Number.isFinite(ms) ? ms : Number.NEGATIVE_INFINITY;
}

function paged<T>(items: T[], page: string | undefined) {
  const n = Math.max(1, Number(page ?? "1") || 1);
  return items.slice((n - 1) * PAGE, n * PAGE);
}

xeroStandInApi.get("/api.xro/2.0/Invoices", async (c) => {
  const tenantId = c.req.header("xero-tenant-id") ?? "";
  const since = modifiedSince(c.req.header("If-Modified-Since"));
  const statuses = c.req.query("Statuses")?.split(",").filter(Boolean);
  const ids = c.req.query("IDs")?.split(",").filter(Boolean);
  const type = /Type\s*==\s*"(\w+)"/.exec(c.req.query("where") ?? "")?.[1];
  const all = await listObjects<XeroInvoice>(c.env, tenantId, "invoice", ids);
  const chosen = all
    .filter((i) => (!type || i.Type === type) && (!statuses || statuses.includes(i.Status)))
    .filter((i) => xeroTime(i.UpdatedDateUTC) >= since)
    .sort((a, b) => xeroTime(a.UpdatedDateUTC) - xeroTime(b.UpdatedDateUTC) || a.InvoiceID.localeCompare(b.InvoiceID));
  if (Number.isFinite(since) && chosen.length === 0) return new Response(null, { status: 304 });
  return c.json(
    envelope(
      "Invoices",
      paged(chosen, c.req.query("page")).map(({ _tenant: _t, ...i }: XeroInvoice & { _tenant?: string }) => i),
    ),
  );
});

xeroStandInApi.get("/api.xro/2.0/Contacts", async (c) => {
  const tenantId = c.req.header("xero-tenant-id") ?? "";
  const ids = c.req.query("IDs")?.split(",").filter(Boolean);
  const all = await listObjects<XeroContact>(c.env, tenantId, "contact", ids);
  return c.json(envelope("Contacts", paged(all, c.req.query("page"))));
});

xeroStandInApi.get("/api.xro/2.0/Payments", async (c) => {
  const tenantId = c.req.header("xero-tenant-id") ?? "";
  const since = modifiedSince(c.req.header("If-Modified-Since"));
  const all = await listObjects<{ UpdatedDateUTC: string }>(c.env, tenantId, "payment");
  return c.json(
    envelope(
      "Payments",
      paged(
        all.filter((p) => xeroTime(p.UpdatedDateUTC) >= since),
        c.req.query("page"),
      ),
    ),
  );
});

/** `Field=="VALUE"` conditions of a `where` filter (the stand-in reads equality joined by AND only). */
function whereEquals(where: string | undefined) {
  const found: Record<string, string> = {};
  for (const m of (where ?? "").matchAll(/(\w+)\s*==\s*"([^"]*)"/g)) found[m[1] as string] = m[2] as string;
  return found;
}

xeroStandInApi.get("/api.xro/2.0/Accounts", async (c) => {
  // Xero lists the chart of accounts only to a grant with accounting.settings(.read).
  const auth = await bearer(c);
  if ("refused" in auth || !auth.scopes.some((s) => s === "accounting.settings" || s === "accounting.settings.read")) {
    return c.json({ Title: "Unauthorized", Status: 401, Detail: "AuthorizationUnsuccessful" }, 401);
  }
  const tenantId = c.req.header("xero-tenant-id") ?? "";
  const where = whereEquals(c.req.query("where"));
  const all = await listObjects<XeroAccount & Record<string, string>>(c.env, tenantId, "account");
  const chosen = all.filter((a) => Object.entries(where).every(([k, v]) => a[k] === v));
  return c.json(envelope("Accounts", chosen));
});

/** Xero's answer to a payment it refuses: a ValidationException naming what was wrong. */
const validation = (message: string) =>
  Response.json(
    {
      ErrorNumber: 10,
      Type: "ValidationException",
      Message: "A validation exception occurred",
      Elements: [{ ValidationErrors: [{ Message: message }] }],
    },
    { status: 400 },
  );

interface PaymentBody {
  Invoice?: { InvoiceID?: string };
  Account?: { AccountID?: string };
  Date?: string;
  Amount?: number;
  Reference?: string;
}

/** Records one payment on a sales invoice of the tenant, to an active bank account; or Xero's refusal. */
async function createPayment(env: Env, tenantId: string, body: PaymentBody): Promise<Response> {
  const invoice = await getObject<XeroInvoice>(env, "invoice", body.Invoice?.InvoiceID ?? "");
  if (!invoice || invoice.tenantId !== tenantId) return validation("Invoice could not be found");
  const account = await getObject<XeroAccount>(env, "account", body.Account?.AccountID ?? "");
  if (!account || account.tenantId !== tenantId) return validation("Account could not be found");
  if (account.data.Type !== "BANK" || account.data.Status !== "ACTIVE") {
    return validation(`Payments cannot be made to the account ${account.data.Name}: it is not an active bank account`);
  }
  if (invoice.data.Type !== "ACCREC" || invoice.data.Status !== "AUTHORISED") {
    return validation("Invoice not of valid status for modification");
  }
  const amount = Number(body.Amount);
  if (!(amount > 0)) return validation("Payment amount must be greater than zero");
  if (Math.round(amount * 100) > Math.round(invoice.data.AmountDue * 100)) {
    return validation("Payment amount exceeds the amount outstanding on this document");
  }
  const paidOn = /^\d{4}-\d{2}-\d{2}$/.test(body.Date ?? "") ? body.Date : undefined;
  const payment = await addStandInPayment(env, invoice.data.InvoiceID, amount, Date.now(), {
    paidOn,
    account: account.data,
    reference: body.Reference?.slice(0, 255),
  });
  if (!payment) return validation("Invoice not of valid status for modification");
  return Response.json(envelope("Payments", [payment]));
}

/**
 * PUT Payments: a payment on an invoice, as Xero records one (the invoice's AmountDue lowered).
 * With an Idempotency-Key the first answer is kept: the same key again answers it again and records
 * nothing more (a request still under way with that key answers 409).
 */
xeroStandInApi.put("/api.xro/2.0/Payments", async (c) => {
  const tenantId = c.req.header("xero-tenant-id") ?? "";
  const key = c.req.header("Idempotency-Key");
  if (key && key.length > 128) return validation("The Idempotency-Key is longer than 128 characters");
  let parsed: { Payments?: PaymentBody[] } & PaymentBody;
  try {
    parsed = (await c.req.json()) as typeof parsed;
  } catch {
    return validation("The request is not JSON");
  }
  const one = parsed.Payments ? parsed.Payments[0] : parsed;
  if (!one || (parsed.Payments && parsed.Payments.length !== 1)) {
    return validation("The stand-in takes one payment a request");
  }
  if (!key) return createPayment(c.env, tenantId, one);
  const id = `idempotency:${tenantId}:${await sha256(key)}`;
  if (!(await putObjectOnce(c.env, "idempotency", id, tenantId, { state: "under-way" }))) {
    const kept = await getObject<{ state: string; status?: number; body?: unknown }>(c.env, "idempotency", id);
    if (kept?.data.state !== "done")
      return c.json({ Title: "Conflict", Status: 409, Detail: "Request in progress" }, 409);
    return Response.json(kept.data.body, { status: kept.data.status ?? 200 });
  }
  const answer = await createPayment(c.env, tenantId, one);
  await putObject(c.env, "idempotency", id, tenantId, {
    state: "done",
    status: answer.status,
    body: await answer.clone().json(),
  });
  return answer;
});

xeroStandInApi.all("*", (c) => c.json({ Title: "Not found", Status: 404 }, 404));
