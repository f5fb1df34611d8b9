import { Intuit } from "arctic";
import type { AppConfig } from "~/platform/config.server";
import { BooksError, type BooksGrant, type BooksSession } from "../books";
import { basicAuth, type FailureWords, policyRequest, tokenRequest as sharedTokenRequest } from "../tool-http.server";
import { quickBooksStandInApi } from "./standin/api.server";
import { STANDIN_CLIENT_ID, STANDIN_CLIENT_SECRET, STANDIN_HOST, STANDIN_WEBHOOK_VERIFIER } from "./standin/config";

/**
 * The one QuickBooks Online client (decisions/061): OAuth 2.0 (arctic's Intuit provider builds the
 * consent URL; its token answers are read with arctic's OAuth2Tokens), the token endpoint's grants,
 * revocation, and the Accounting API (query, change data capture, CompanyInfo), all under the one
 * failure policy both tools share (`policyRequest`, app/accounting/tool-http.server.ts):
 * - 429: wait Retry-After, or a short back-off when there is none (at most 30 s, three times),
 *   then give up with a "busy" error the next sync retries;
 * - 401: the caller's `refresh` once, then the request again; 403 or a second 401 is "reconnect";
 * - 5xx or no answer: "QuickBooks did not answer"; other 4xx: "QuickBooks refused the request".
 * Intuit allows 500 calls a minute per company; a sync makes a few. Its URLs come from
 * configuration only: QUICKBOOKS_ENVIRONMENT picks Intuit's sandbox or production API, and without
 * QUICKBOOKS_CLIENT_ID (development and test) they name the local stand-in, whose requests this
 * client's fetch hands to the stand-in's API inside the Worker; the consent page is then
 * /dev/quickbooks/authorize. arctic's Intuit calls the global fetch, which cannot reach the
 * stand-in, so the token requests go through this client's fetch.
 */

export const QUICKBOOKS_SCOPES = ["com.intuit.quickbooks.accounting"];
/** Every Accounting API request names the minor version of the answers it reads. */
export const QUICKBOOKS_MINOR_VERSION = "75";
/** A query answers at most 1,000 rows; change data capture at most 1,000 objects an entity. */
export const QUICKBOOKS_PAGE_SIZE = 1000;
/** Seconds to wait on a 429 without Retry-After: 2, then 5, then 10. */
const BACK_OFF = [2, 5, 10];

export interface QuickBooksEndpoints {
  authorize: string;
  token: string;
  revoke: string;
  /** The Accounting API up to /v3/company (the realm follows). */
  api: string;
  /** Where the user sees a company's invoice (QuickBooks' web app, or the stand-in's page). */
  web: string;
}

export interface QuickBooksSetup {
  clientId: string;
  clientSecret: string;
  endpoints: QuickBooksEndpoints;
  fetch: typeof fetch;
  standIn: boolean;
  /** The key that seals the tokens at rest. */
  tokenKey: string;
}

/** Why QuickBooks cannot be connected on this deployment, or null when it can. */
export function quickBooksUnavailable(config: AppConfig): string | null {
  if (!config.ACCOUNTING_TOKEN_KEY) {
    return "QuickBooks is not available: the key that encrypts its tokens is not set up.";
  }
  if (!config.QUICKBOOKS_CLIENT_ID && config.APP_ENV === "production") {
    return "QuickBooks is not available on this deployment yet.";
  }
  return null;
}

/** The verifier token QuickBooks' webhooks are signed with, or null when they are not taken (fails closed). */
export function quickBooksWebhookVerifier(config: AppConfig): string | null {
  if (config.QUICKBOOKS_CLIENT_ID) return config.QUICKBOOKS_WEBHOOK_VERIFIER ?? null;
  return config.APP_ENV === "development" || config.APP_ENV === "test" ? STANDIN_WEBHOOK_VERIFIER : null;
}

/** QuickBooks for this deployment, or null when it has none (fails closed). `origin`: the app's, for the stand-in's consent page. */
export function quickBooksSetup(config: AppConfig, env: Env, origin: string): QuickBooksSetup | null {
  if (quickBooksUnavailable(config) || !config.ACCOUNTING_TOKEN_KEY) return null;
  if (config.QUICKBOOKS_CLIENT_ID) {
    const sandbox = config.QUICKBOOKS_ENVIRONMENT === "sandbox";
    return {
      clientId: config.QUICKBOOKS_CLIENT_ID,
      clientSecret: config.QUICKBOOKS_CLIENT_SECRET ?? "",
      endpoints: {
        authorize: "https://appcenter.intuit.com/connect/oauth2",
        token: "https://oauth.platform.intuit.com/oauth2/v1/tokens/bearer",
        revoke: "https://developer.api.intuit.com/v2/oauth2/tokens/revoke",
        api: sandbox
          ? "https://sandbox-quickbooks.api.intuit.com/v3/company"
          : "https://quickbooks.api.intuit.com/v3/company",
        web: sandbox ? "https://app.sandbox.qbo.intuit.com/app" : "https://app.qbo.intuit.com/app",
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
      authorize: `${origin}/dev/quickbooks/authorize`,
      token: `https://${STANDIN_HOST}/oauth2/v1/tokens/bearer`,
      revoke: `https://${STANDIN_HOST}/v2/oauth2/tokens/revoke`,
      api: `https://${STANDIN_HOST}/v3/company`,
      web: `${origin}/dev/quickbooks`,
    },
    // No network: the same requests, answered by the stand-in inside this Worker.
    fetch: ((input: RequestInfo | URL, init?: RequestInit) =>
      quickBooksStandInApi.fetch(new Request(input, init), env)) as typeof fetch,
    standIn: true,
    tokenKey: config.ACCOUNTING_TOKEN_KEY,
  };
}

/** A QuickBooks failure, with words for the user (`message`). */
export class QuickBooksError extends BooksError {
  constructor(
    kind: BooksError["kind"],
    message: string,
    status?: number,
    /** A refusal's own words from QuickBooks (its Fault's Detail or Message), without Dunly's framing. */
    readonly detail?: string,
  ) {
    super(kind, message, status);
    this.name = "QuickBooksError";
  }
}

const RECONNECT = "QuickBooks refused: the connection has expired or was removed. Connect QuickBooks again.";
const UNREACHABLE = "QuickBooks did not answer: Dunly tries again at the next sync.";

export function quickBooksRedirectUri(origin: string) {
  return `${origin}/iam/accounting/quickbooks/callback`;
}

/** The consent page's URL for this state: arctic's Intuit builds it; the stand-in's page when there is one. */
export function quickBooksAuthorizationUrl(setup: QuickBooksSetup, origin: string, state: string): URL {
  const url = new Intuit(setup.clientId, setup.clientSecret, quickBooksRedirectUri(origin)).createAuthorizationURL(
    state,
    QUICKBOOKS_SCOPES,
  );
  const target = new URL(setup.endpoints.authorize);
  target.search = url.search;
  return target;
}

/** The tool's token endpoint (app/accounting/tool-http.server.ts), failing in its own words. */
function tokenRequest(setup: QuickBooksSetup, body: URLSearchParams, now: number): Promise<BooksGrant> {
  return sharedTokenRequest(
    {
      url: setup.endpoints.token,
      clientId: setup.clientId,
      clientSecret: setup.clientSecret,
      fetch: setup.fetch,
      fail: (kind, status) => new QuickBooksError(kind, kind === "unreachable" ? UNREACHABLE : RECONNECT, status),
      maxLifetimeMs: 60 * 60_000,
    },
    body,
    now,
  );
}

export function exchangeQuickBooksCode(setup: QuickBooksSetup, origin: string, code: string, now = Date.now()) {
  return tokenRequest(
    setup,
    new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: quickBooksRedirectUri(origin) }),
    now,
  );
}

/** A new grant for the refresh token; the refresh token that comes back replaces the one used. */
export function refreshQuickBooksGrant(setup: QuickBooksSetup, refreshToken: string, now = Date.now()) {
  return tokenRequest(setup, new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken }), now);
}

/** Revokes the refresh token (and the grant's access tokens). Best effort: false when Intuit did not confirm. */
export async function revokeQuickBooksGrant(setup: QuickBooksSetup, refreshToken: string): Promise<boolean> {
  try {
    const response = await setup.fetch(setup.endpoints.revoke, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json",
        Authorization: basicAuth(setup.clientId, setup.clientSecret),
      },
      body: JSON.stringify({ token: refreshToken }),
    });
    return response.ok;
  } catch {
    return false;
  }
}

/** QuickBooks' error body: `Fault.Error[0]`'s Message and Detail. */
function faultDetail(text: string) {
  try {
    const error = (JSON.parse(text) as { Fault?: { Error?: { Message?: string; Detail?: string }[] } }).Fault
      ?.Error?.[0];
    return String(error?.Detail ?? error?.Message ?? "").slice(0, 300);
  } catch {
    return "";
  }
}

/**
 * One request to the company's Accounting API under the failure policy; the parsed JSON body.
 * `path` follows /v3/company/{realm}/ ("query", "cdc", "companyinfo/{realm}", "payment");
 * minorversion is added. A GET, or a POST of `body` as JSON (a create: its query names a
 * `requestid`, so that the same request sent again gets QuickBooks' first answer).
 */
export async function quickBooksRequest<T>(
  setup: QuickBooksSetup,
  session: BooksSession,
  path: string,
  query: Record<string, string> = {},
  body?: unknown,
): Promise<T> {
  if (!session.tenantId) throw new QuickBooksError("reconnect", RECONNECT);
  // Percent-encoded as Intuit's examples are (spaces as %20, never "+").
  const search = Object.entries({ ...query, minorversion: QUICKBOOKS_MINOR_VERSION })
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join("&");
  const url = new URL(`${setup.endpoints.api}/${encodeURIComponent(session.tenantId)}/${path}?${search}`);
  return policyRequest<T>(
    session,
    (token) =>
      setup.fetch(
        url.href,
        body === undefined
          ? { method: "GET", headers: { Authorization: `Bearer ${token}`, Accept: "application/json" } }
          : {
              method: "POST",
              headers: {
                Authorization: `Bearer ${token}`,
                Accept: "application/json",
                "Content-Type": "application/json",
              },
              body: JSON.stringify(body),
            },
      ),
    QUICKBOOKS_WORDS,
  );
}

/** The failure policy in QuickBooks' words. */
const QUICKBOOKS_WORDS: FailureWords = {
  busy: () =>
    new QuickBooksError(
      "rate-limited",
      "QuickBooks is busy: this company reached its limit of calls a minute. Dunly tries again at the next sync.",
      429,
    ),
  reconnect: (status) => new QuickBooksError("reconnect", RECONNECT, status),
  unreachable: (status) => new QuickBooksError("unreachable", UNREACHABLE, status),
  refused: (status, text) => {
    const detail = faultDetail(text);
    return new QuickBooksError(
      "refused",
      `QuickBooks refused the request (${status})${detail ? `: ${detail}` : ""}.`,
      status,
      detail || undefined,
    );
  },
  // Intuit's 429 often names no wait: a short back-off.
  defaultWait: (retry) => BACK_OFF[retry] ?? BACK_OFF[BACK_OFF.length - 1] ?? 10,
};

/** The company's name (CompanyInfo), or null when QuickBooks does not say. */
export async function quickBooksCompanyName(setup: QuickBooksSetup, session: BooksSession) {
  const body = await quickBooksRequest<{ CompanyInfo?: { CompanyName?: string } }>(
    setup,
    session,
    `companyinfo/${encodeURIComponent(session.tenantId ?? "")}`,
  );
  return body.CompanyInfo?.CompanyName?.trim() || null;
}

/** The invoice's page for the user: in QuickBooks' web app (the company they are signed in to), or the stand-in's row. */
export function quickBooksInvoiceUrl(setup: QuickBooksSetup, invoiceId: string) {
  const id = encodeURIComponent(invoiceId);
  return setup.standIn ? `${setup.endpoints.web}#invoice-${id}` : `${setup.endpoints.web}/invoice?txnId=${id}`;
}
