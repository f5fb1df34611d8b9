import { CodeChallengeMethod, OAuth2Client } from "arctic";
import type { AppConfig } from "~/platform/config.server";
import { BooksError, type BooksGrant, type BooksSession } from "../books";
import { basicAuth, type FailureWords, policyRequest, tokenRequest as sharedTokenRequest } from "../tool-http.server";
import { xeroStandInApi } from "./standin/api.server";
import { STANDIN_CLIENT_ID, STANDIN_CLIENT_SECRET, STANDIN_HOST, STANDIN_WEBHOOK_KEY } from "./standin/config";

/**
 * The one Xero client (decisions/060): OAuth 2.0 with PKCE (arctic's generic OAuth2Client builds
 * the consent URL), the token endpoint's grants, the connections list and the Accounting API, all
 * under the one failure policy both tools share (`policyRequest`, app/accounting/tool-http.server.ts):
 * - 429: wait Retry-After (at most 30 s, three times), then give up with a "busy" error the next
 *   sync retries;
 * - 401: the caller's `refresh` once, then the request again; a second 401 is "reconnect";
 * - anything else not 2xx, or no answer: a XeroError whose message is for the user.
 * Its URLs come from configuration only: without XERO_CLIENT_ID, in development and test, they
 * name the local stand-in, whose requests this client's fetch hands to the stand-in's API inside
 * the Worker (like Stripe's, decisions/017); the browser's consent page is /dev/xero/authorize.
 */

// accounting.settings.read: the bank accounts a payment written back goes to (GET Accounts, decisions/063).
export const XERO_SCOPES = [
  "offline_access",
  "accounting.transactions",
  "accounting.contacts.read",
  "accounting.settings.read",
];
/** Xero answers at most 100 invoices or contacts a page. */
export const XERO_PAGE_SIZE = 100;

export interface XeroEndpoints {
  authorize: string;
  token: string;
  revoke: string;
  connections: string;
  api: string;
  /** Where the user sees the organisation's invoices (Xero's web app, or the stand-in's page). */
  web: string;
}

export interface XeroSetup {
  clientId: string;
  clientSecret: string;
  endpoints: XeroEndpoints;
  fetch: typeof fetch;
  standIn: boolean;
  /** The key that seals the tokens at rest. */
  tokenKey: string;
}

/** Why Xero cannot be connected on this deployment, or null when it can. */
export function xeroUnavailable(config: AppConfig): string | null {
  if (!config.ACCOUNTING_TOKEN_KEY) return "Xero is not available: the key that encrypts its tokens is not set up.";
  if (!config.XERO_CLIENT_ID && config.APP_ENV === "production") return "Xero is not available on this deployment yet.";
  return null;
}

/** Xero for this deployment, or null when it has none (fails closed). `origin`: the app's, for the stand-in's consent page. */
export function xeroSetup(config: AppConfig, env: Env, origin: string): XeroSetup | null {
  if (xeroUnavailable(config) || !config.ACCOUNTING_TOKEN_KEY) return null;
  if (config.XERO_CLIENT_ID) {
    return {
      clientId: config.XERO_CLIENT_ID,
      clientSecret: config.XERO_CLIENT_SECRET ?? "",
      endpoints: {
        authorize: "https://login.xero.com/identity/connect/authorize",
        token: "https://identity.xero.com/connect/token",
        revoke: "https://identity.xero.com/connect/revocation",
        connections: "https://api.xero.com/connections",
        api: "https://api.xero.com/api.xro/2.0",
        web: "https://go.xero.com",
      },
      fetch: (input, init) => fetch(input, init),
      standIn: false,
      tokenKey: config.ACCOUNTING_TOKEN_KEY,
    };
  }
  return {
    clientId: STANDIN_CLIENT_ID,
    clientSecret: STANDIN_CLIENT_SECRET,
    endpoints: {
      authorize: `${origin}/dev/xero/authorize`,
      token: `https://${STANDIN_HOST}/connect/token`,
      revoke: `https://${STANDIN_HOST}/connect/revocation`,
      connections: `https://${STANDIN_HOST}/connections`,
      api: `https://${STANDIN_HOST}/api.xro/2.0`,
      web: `${origin}/dev/xero`,
    },
    // No network: the same requests, answered by the stand-in inside this Worker.
    fetch: ((input: RequestInfo | URL, init?: RequestInit) =>
      xeroStandInApi.fetch(new Request(input, init), env)) as typeof fetch,
    standIn: true,
    tokenKey: config.ACCOUNTING_TOKEN_KEY,
  };
}

/**
 * The key /webhooks/xero verifies signatures with (decisions/062): XERO_WEBHOOK_KEY with Xero
 * itself; the stand-in's fixed key where the stand-in answers (development and test without
 * XERO_CLIENT_ID); null otherwise, and the endpoint answers 404 (fails closed).
 */
export function xeroWebhookKey(config: AppConfig): string | null {
  if (config.XERO_CLIENT_ID) return config.XERO_WEBHOOK_KEY ?? null;
  if (config.APP_ENV === "development" || config.APP_ENV === "test") return STANDIN_WEBHOOK_KEY;
  return null;
}

export type XeroErrorKind = BooksError["kind"];

/** A Xero failure, with words for the user (`message`): a BooksError the sync handles like any tool's. */
export class XeroError extends BooksError {
  constructor(
    kind: XeroErrorKind,
    message: string,
    status?: number,
    /** A refusal's own words from Xero (its validation errors), without Dunly's framing. */
    readonly detail?: string,
  ) {
    super(kind, message, status);
    this.name = "XeroError";
  }
}

const RECONNECT = "Xero refused: the connection has expired or was removed. Connect Xero again.";
const UNREACHABLE = "Xero did not answer: Dunly tries again at the next sync.";

function redirectUri(origin: string) {
  return `${origin}/iam/accounting/xero/callback`;
}

/** The consent page's URL for this state and PKCE verifier. */
export function xeroAuthorizationUrl(setup: XeroSetup, origin: string, state: string, codeVerifier: string): URL {
  return new OAuth2Client(setup.clientId, setup.clientSecret, redirectUri(origin)).createAuthorizationURLWithPKCE(
    setup.endpoints.authorize,
    state,
    CodeChallengeMethod.S256,
    codeVerifier,
    XERO_SCOPES,
  );
}

export type XeroGrant = BooksGrant;

/** The tool's token endpoint (app/accounting/tool-http.server.ts), failing in its own words. */
function tokenRequest(setup: XeroSetup, body: URLSearchParams, now: number): Promise<XeroGrant> {
  return sharedTokenRequest(
    {
      url: setup.endpoints.token,
      clientId: setup.clientId,
      clientSecret: setup.clientSecret,
      fetch: setup.fetch,
      fail: (kind, status) => new XeroError(kind, kind === "unreachable" ? UNREACHABLE : RECONNECT, status),
      maxLifetimeMs: 30 * 60_000,
    },
    body,
    now,
  );
}

export function exchangeCode(setup: XeroSetup, origin: string, code: string, codeVerifier: string, now = Date.now()) {
  return tokenRequest(
    setup,
    new URLSearchParams({
      grant_type: "authorization_code",
      code,
      redirect_uri: redirectUri(origin),
      code_verifier: codeVerifier,
    }),
    now,
  );
}

/** A new grant for the refresh token; Xero rotates it: the old one stops working. */
export function refreshGrant(setup: XeroSetup, refreshToken: string, now = Date.now()) {
  return tokenRequest(setup, new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken }), now);
}

/** Revokes the refresh token (and every access token of its grant). Best effort: false when Xero did not confirm. */
export async function revokeGrant(setup: XeroSetup, refreshToken: string): Promise<boolean> {
  try {
    const response = await setup.fetch(setup.endpoints.revoke, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Authorization: basicAuth(setup.clientId, setup.clientSecret),
      },
      body: new URLSearchParams({ token: refreshToken }),
    });
    return response.ok;
  } catch {
    return false;
  }
}

export interface XeroTenant {
  id: string;
  tenantId: string;
  tenantType: string;
  tenantName: string | null;
}

/** A session with one tenant: the access token now, and a refresh the client calls once on a 401. */
export type XeroSession = BooksSession;

/**
 * One request under the failure policy; the parsed JSON body. `url` is absolute (built from the
 * setup's endpoints).
 */
export async function xeroRequest<T>(
  setup: XeroSetup,
  session: XeroSession,
  url: string,
  options: { method?: string; ifModifiedSince?: string; body?: unknown; idempotencyKey?: string } = {},
): Promise<T> {
  return policyRequest<T>(
    session,
    (token) => {
      const headers: Record<string, string> = { Authorization: `Bearer ${token}`, Accept: "application/json" };
      if (session.tenantId) headers["xero-tenant-id"] = session.tenantId;
      if (options.ifModifiedSince) headers["If-Modified-Since"] = options.ifModifiedSince;
      // Xero keeps a write's answer under its key: the same key again makes nothing new (128 characters at most).
      if (options.idempotencyKey) headers["Idempotency-Key"] = options.idempotencyKey;
      if (options.body !== undefined) headers["Content-Type"] = "application/json";
      return setup.fetch(url, {
        method: options.method ?? "GET",
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
      });
    },
    XERO_WORDS,
  );
}

/** The failure policy in Xero's words. */
const XERO_WORDS: FailureWords = {
  busy: (response) =>
    new XeroError(
      "rate-limited",
      `Xero is busy: this organisation reached its limit of ${response.headers.get("X-Rate-Limit-Problem") === "day" ? "calls a day" : "calls a minute"}. Dunly tries again at the next sync.`,
      429,
    ),
  reconnect: (status) => new XeroError("reconnect", RECONNECT, status),
  unreachable: (status) => new XeroError("unreachable", UNREACHABLE, status),
  refused: (status, text) => {
    let detail = "";
    try {
      detail = refusalDetail(JSON.parse(text));
    } catch {}
    return new XeroError(
      "refused",
      `Xero refused the request (${status})${detail ? `: ${detail}` : ""}.`,
      status,
      detail || undefined,
    );
  },
  // Xero always names its wait; without one, a minute (more than the policy waits).
  defaultWait: () => 60,
};

/** Xero's words for a refusal: a validation error's own message first (what was wrong), else the answer's Message. */
function refusalDetail(body: { Message?: string; Elements?: { ValidationErrors?: { Message?: string }[] }[] }): string {
  const validation = (body.Elements ?? [])
    .flatMap((e) => e.ValidationErrors ?? [])
    .map((e) => e.Message?.trim().replace(/\.+$/, ""))
    .filter(Boolean);
  return validation.length > 0 ? validation.join(". ") : String(body.Message ?? "");
}

/** The organisations the grant may reach (GET /connections). */
export function xeroConnections(setup: XeroSetup, session: XeroSession) {
  return xeroRequest<XeroTenant[]>(setup, { ...session, tenantId: null }, setup.endpoints.connections);
}

/** Removes the app's connection to the organisation (DELETE /connections/{id}); best effort. */
export async function deleteXeroConnection(setup: XeroSetup, session: XeroSession, connectionId: string) {
  try {
    await xeroRequest(setup, { ...session, tenantId: null }, `${setup.endpoints.connections}/${connectionId}`, {
      method: "DELETE",
    });
    return true;
  } catch {
    return false;
  }
}

/** An Accounting API URL: `path` ("Invoices") with the query. */
export function apiUrl(setup: XeroSetup, path: string, query: Record<string, string | number | undefined> = {}) {
  const url = new URL(`${setup.endpoints.api}/${path}`);
  for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, String(v));
  return url.href;
}

/** The invoice's page for the user: in Xero's web app (the organisation they are signed in to), or the stand-in's row. */
export function xeroInvoiceUrl(setup: XeroSetup, invoiceId: string) {
  const id = encodeURIComponent(invoiceId);
  return setup.standIn
    ? `${setup.endpoints.web}#invoice-${id}`
    : `${setup.endpoints.web}/AccountsReceivable/View.aspx?InvoiceID=${id}`;
}
