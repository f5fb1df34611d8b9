import { Hono } from "hono";
import type { QboCustomer, QboInvoice } from "../mapping";
import { qboTime } from "../mapping";
import { STANDIN_CLIENT_ID, STANDIN_CLIENT_SECRET } from "./config";
import { deleteQboObject, getQboObject, listQboObjects, putQboObject, qboStamp, sha256 } from "./store.server";

/**
 * The local QuickBooks Online stand-in's identity and Accounting API (decisions/061), served inside
 * the Worker: the one QuickBooks client's fetch hands it its requests when no QUICKBOOKS_CLIENT_ID
 * is set (development and test). It keeps Intuit's shapes for what Dunly reads: the token endpoint
 * (authorization code, rotating refresh tokens), revocation, CompanyInfo, the query language's
 * `select * from Invoice|Customer` with the conditions Dunly uses (Balance > '0', Id in (…),
 * Metadata.LastUpdatedTime >= '…'), startposition and maxresults (at most 1,000), and change data
 * capture (at most 1,000 objects an entity). Every API request must name its minorversion. A 'fault'
 * row makes the API answer 429, with Retry-After when the test asked for one.
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
    /^select \* from (Invoice|Customer)(?: where (.+?))?(?: orderby ([\w.]+))?(?: startposition (\d+))?(?: maxresults (\d+))?$/i.exec(
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
  if (where && !balance && !ids && !since) return null;
  return {
    entity: m[1]?.toLowerCase() === "invoice" ? ("invoice" as const) : ("customer" as const),
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
  const rows =
    q.entity === "invoice"
      ? (await listQboObjects<QboInvoice>(c.env, realm, "invoice", { ids: q.ids, since: q.since })).filter(
          (i) => i.status !== "Deleted" && (!q.balance || (i.Balance ?? 0) > 0),
        )
      : await listQboObjects<QboCustomer>(c.env, realm, "customer", { ids: q.ids });
  const page = rows.slice(q.start - 1, q.start - 1 + q.max);
  const key = q.entity === "invoice" ? "Invoice" : "Customer";
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

quickBooksStandInApi.all("*", () => fault(404, "Not found", "The stand-in has no such endpoint", "404"));
