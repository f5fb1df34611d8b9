import { Hono } from "hono";
import type { QboCustomer, QboInvoice } from "../mapping";
import { qboTime } from "../mapping";
import { STANDIN_CLIENT_ID, STANDIN_CLIENT_SECRET } from "./config";
import {
  deleteQboObject,
  getQboObject,
  listQboObjects,
  putQboObject,
  putQboObjectOnce,
  type QboAccount,
  type QboPaymentBody,
  qboStamp,
  receiveQboPayment,
  sha256,
} from "./store.server";

/**
 * The local QuickBooks Online stand-in's identity and Accounting API (decisions/061), served inside
 * the Worker: the one QuickBooks client's fetch hands it its requests when no QUICKBOOKS_CLIENT_ID
 * is set (development and test). It keeps Intuit's shapes for what Dunly reads: the token endpoint
 * (authorization code, rotating refresh tokens), revocation, CompanyInfo, the query language's
 * `select * from Invoice|Customer|Account` with the conditions Dunly uses (Balance > '0', Id in
 * (…), Metadata.LastUpdatedTime >= '…', AccountType = 'Bank' and Active = true), startposition and
 * maxresults (at most 1,000), change data capture (at most 1,000 objects an entity), and creating a
 * Payment (decisions/063) under a `requestid`. Every API request must name its minorversion. A
 * 'fault' row makes the API answer 429, with Retry-After when the test asked for one.
 */
export const quickBooksStandInApi = new Hono<{ Bindings: Env }>();

const ACCESS_SECONDS = 3600;
const MAX_RESULTS = 1000;

interface Grant {
  realmId: string;
  expiresAt?: number;
}
interface CodeGrant {
  realmId: string;
  redirectUri: string;
  expiresAt: number;
}

const tokenError = (error: string) => Response.json({ error }, { status: 400 });

async function issue(env: Env, realmId: string, now: number) {
  const access = `standin-qbo-access-${crypto.randomUUID()}`;
  const refresh = `standin-qbo-refresh-${crypto.randomUUID()}`;
  await putQboObject(env, "access", realmId, await sha256(access), {
    realmId,
    expiresAt: now + ACCESS_SECONDS * 1000,
  });
  await putQboObject(env, "refresh", null, await sha256(refresh), { realmId });
  return Response.json({
    token_type: "bearer",
    access_token: access,
    expires_in: ACCESS_SECONDS,
    refresh_token: refresh,
    x_refresh_token_expires_in: 8_726_400,
  });
}

function clientOk(header: string | undefined) {
  return header === `Basic ${btoa(`${STANDIN_CLIENT_ID}:${STANDIN_CLIENT_SECRET}`)}`;
}

quickBooksStandInApi.post("/oauth2/v1/tokens/bearer", async (c) => {
  if (!clientOk(c.req.header("Authorization"))) return Response.json({ error: "invalid_client" }, { status: 401 });
  const form = new URLSearchParams(await c.req.text());
  const now = Date.now();
  if (form.get("grant_type") === "authorization_code") {
    const codeKey = await sha256(form.get("code") ?? "");
    const found = await getQboObject<CodeGrant>(c.env, "code", null, codeKey);
    if (!found || found.data.expiresAt < now) return tokenError("invalid_grant");
    await deleteQboObject(c.env, "code", null, codeKey);
    if (form.get("redirect_uri") !== found.data.redirectUri) return tokenError("invalid_grant");
    return issue(c.env, found.data.realmId, now);
  }
  if (form.get("grant_type") === "refresh_token") {
    const key = await sha256(form.get("refresh_token") ?? "");
    const found = await getQboObject<Grant>(c.env, "refresh", null, key);
    // Rotation: a refresh token works once.
    if (!found || !(await deleteQboObject(c.env, "refresh", null, key))) return tokenError("invalid_grant");
    return issue(c.env, found.data.realmId, now);
  }
  return tokenError("unsupported_grant_type");
});

quickBooksStandInApi.post("/v2/oauth2/tokens/revoke", async (c) => {
  if (!clientOk(c.req.header("Authorization"))) return Response.json({ error: "invalid_client" }, { status: 401 });
  const text = await c.req.text();
  let token = "";
  try {
    token = String((JSON.parse(text) as { token?: string }).token ?? "");
  } catch {
    token = new URLSearchParams(text).get("token") ?? "";
  }
  await deleteQboObject(c.env, "refresh", null, await sha256(token));
  return new Response(null, { status: 200 });
});

const fault = (status: number, message: string, detail: string, code: string, type = "ValidationFault") =>
  Response.json(
    { Fault: { Error: [{ Message: message, Detail: detail, code }], type }, time: qboStamp(Date.now()) },
    {
      status,
    },
  );

/** The API's checks: the token and its company, the minor version, and a fault a test asked for. */
quickBooksStandInApi.use("/v3/company/:realm/*", async (c, next) => {
  const token = /^Bearer (.+)$/.exec(c.req.header("Authorization") ?? "")?.[1] ?? "";
  const realm = c.req.param("realm");
  const grant = await getQboObject<Grant>(c.env, "access", realm, await sha256(token));
  if (!grant || (grant.data.expiresAt ?? 0) < Date.now()) {
    return fault(
      401,
      "message=AuthenticationFailed; errorCode=003200; statusCode=401",
      "Token expired",
      "3200",
      "AUTHENTICATION",
    );
  }
  if (!c.req.query("minorversion")) {
    return fault(400, "Invalid minor version", "Every request names its minorversion.", "2100");
  }
  const throttle = await getQboObject<{ remaining: number; retryAfter?: number }>(c.env, "fault", realm, "fault");
  if (throttle && throttle.data.remaining > 0) {
    await putQboObject(c.env, "fault", realm, "fault", { ...throttle.data, remaining: throttle.data.remaining - 1 });
    const response = fault(
      429,
      "message=ThrottleExceeded; errorCode=003001; statusCode=429",
      "The request limit was reached.",
      "003001",
      "SERVICE",
    );
    if (throttle.data.retryAfter !== undefined) response.headers.set("Retry-After", String(throttle.data.retryAfter));
    return response;
  }
  await next();
});

quickBooksStandInApi.get("/v3/company/:realm/companyinfo/:id", async (c) => {
  const realm = c.req.param("realm");
  const company = await getQboObject<{ CompanyName: string }>(c.env, "company", realm, realm);
  if (!company || c.req.param("id") !== realm) return fault(400, "Object Not Found", "CompanyInfo not found", "610");
  return c.json({
    CompanyInfo: { ...company.data, Id: "1", domain: "QBO", Country: "US", SupportedLanguages: "en" },
    time: qboStamp(Date.now()),
  });
});

const unquote = (s: string) => s.slice(1, -1).replaceAll("\\'", "'").replaceAll("\\\\", "\\");

/** The query language, as far as Dunly speaks it. */
function parseQuery(query: string) {
  const m =
    /^select \* from (Invoice|Customer|Account)(?: where (.+?))?(?: orderby ([\w.]+))?(?: startposition (\d+))?(?: maxresults (\d+))?$/i.exec(
      query.trim().replace(/\s+/g, " "),
    );
  if (!m) return null;
  const where = m[2] ?? "";
  const balance = /^Balance > '0'$/i.test(where);
  const ids = /^Id in \((.+)\)$/i
    .exec(where)?.[1]
    ?.match(/'(?:[^'\\]|\\.)*'/g)
    ?.map(unquote);
  const since = /^Metadata\.LastUpdatedTime >= ('(?:[^'\\]|\\.)*')$/i.exec(where)?.[1];
  const entity = (m[1]?.toLowerCase() ?? "customer") as "invoice" | "customer" | "account";
  // The chart of accounts: only its active bank accounts, as Dunly asks for them.
  const bank = entity === "account" && /^AccountType = 'Bank' and Active = true$/i.test(where);
  if (entity === "account" ? !bank : where && !balance && !ids && !since) return null;
  return {
    entity,
    balance,
    ids,
    since: since ? qboTime(unquote(since)) : undefined,
    start: Math.max(1, Number(m[4] ?? "1")),
    max: Math.min(MAX_RESULTS, Math.max(1, Number(m[5] ?? "100"))),
  };
}

quickBooksStandInApi.get("/v3/company/:realm/query", async (c) => {
  const realm = c.req.param("realm");
  const q = parseQuery(c.req.query("query") ?? "");
  if (!q) return fault(400, "Error parsing query", "QueryParserError: the stand-in does not know this query", "4000");
  const rows: object[] =
    q.entity === "invoice"
      ? (await listQboObjects<QboInvoice>(c.env, realm, "invoice", { ids: q.ids, since: q.since })).filter(
          (i) => i.status !== "Deleted" && (!q.balance || (i.Balance ?? 0) > 0),
        )
      : q.entity === "account"
        ? (await listQboObjects<QboAccount>(c.env, realm, "account")).filter(
            (a) => a.AccountType === "Bank" && a.Active,
          )
        : await listQboObjects<QboCustomer>(c.env, realm, "customer", { ids: q.ids });
  const page = rows.slice(q.start - 1, q.start - 1 + q.max);
  const key = q.entity === "invoice" ? "Invoice" : q.entity === "account" ? "Account" : "Customer";
  return c.json({
    QueryResponse: page.length > 0 ? { [key]: page, startPosition: q.start, maxResults: page.length } : {},
    time: qboStamp(Date.now()),
  });
});

quickBooksStandInApi.get("/v3/company/:realm/cdc", async (c) => {
  const realm = c.req.param("realm");
  const since = qboTime(c.req.query("changedSince") ?? "");
  if (!since || Date.now() - since > 30 * 86_400_000) {
    return fault(400, "Invalid changedSince", "changedSince must be within the last 30 days", "2010");
  }
  const answered = Date.now();
  const entities = (c.req.query("entities") ?? "").split(",").filter(Boolean);
  const kinds: Record<string, "invoice" | "payment" | undefined> = { Invoice: "invoice", Payment: "payment" };
  const responses = [];
  for (const entity of entities) {
    const kind = kinds[entity];
    const rows = kind ? (await listQboObjects<object>(c.env, realm, kind, { since })).slice(0, MAX_RESULTS) : [];
    responses.push({ [entity]: rows, startPosition: 1, maxResults: rows.length });
  }
  return c.json({ CDCResponse: [{ QueryResponse: responses }], time: qboStamp(answered) });
});

/**
 * Creating a Payment (POST …/payment), as QuickBooks receives one (store.server.ts's checks; the
 * linked invoices' Balance lowered). With a `requestid` (at most 50 characters, unique per company)
 * the first answer is kept, refusals included: the same id again answers it again and makes nothing
 * more. A request still under way with that id answers 503, so the sender asks again later with it.
 */
quickBooksStandInApi.post("/v3/company/:realm/payment", async (c) => {
  const realm = c.req.param("realm");
  const requestId = c.req.query("requestid");
  if (requestId !== undefined && (requestId.length === 0 || requestId.length > 50)) {
    return fault(400, "Invalid requestid", "The requestid is longer than 50 characters", "2500");
  }
  let body: QboPaymentBody;
  try {
    body = (await c.req.json()) as QboPaymentBody;
  } catch {
    return fault(400, "Request has invalid or unsupported property", "The request is not JSON", "2010");
  }
  const create = async () => {
    const made = await receiveQboPayment(c.env, realm, body);
    if ("error" in made) {
      return fault(400, "A business validation error has occurred while processing your request", made.error, "6000");
    }
    return Response.json({ Payment: made, time: qboStamp(Date.now()) });
  };
  if (requestId === undefined) return create();
  const key = await sha256(requestId);
  if (!(await putQboObjectOnce(c.env, "idempotency", realm, key, { state: "under-way" }))) {
    const kept = await getQboObject<{ state: string; status?: number; body?: unknown }>(
      c.env,
      "idempotency",
      realm,
      key,
    );
    if (kept?.data.state !== "done") {
      return fault(503, "Service unavailable", "A request with this requestid is still under way", "3003", "SERVICE");
    }
    return Response.json(kept.data.body, { status: kept.data.status ?? 200 });
  }
  const answer = await create();
  await putQboObject(c.env, "idempotency", realm, key, {
    state: "done",
    status: answer.status,
    body: await answer.clone().json(),
  });
  return answer;
});

quickBooksStandInApi.all("*", () => fault(404, "Not found", "The stand-in has no such endpoint", "404"));
