import { OAuth2Tokens } from "arctic";
import type { BooksError, BooksErrorKind, BooksGrant } from "./books";

/**
 * What Xero's and QuickBooks' clients share (decisions/060, 061): the token endpoint's request and
 * the one failure policy of every API request. Each client passes its own URLs and words.
 */

/**
 * An accounting tool's token endpoint (decisions/060, 061): a POST with the client's credentials in
 * Basic auth, its answer read as OAuth 2.0 tokens by arctic's OAuth2Tokens. Both tools rotate the
 * refresh token. Their client's own fetch sends it (the stand-in answers inside the Worker).
 */
export interface TokenEndpoint {
  url: string;
  clientId: string;
  clientSecret: string;
  fetch: typeof fetch;
  /** The tool's error in its words: 'reconnect' (the grant is gone), 'refused', 'unreachable'. */
  fail: (kind: BooksErrorKind, status?: number) => BooksError;
  /** An access token is refreshed before this, whatever the tool says of its lifetime. */
  maxLifetimeMs: number;
}

export const basicAuth = (clientId: string, clientSecret: string) => `Basic ${btoa(`${clientId}:${clientSecret}`)}`;

export async function tokenRequest(endpoint: TokenEndpoint, body: URLSearchParams, now: number): Promise<BooksGrant> {
  let response: Response;
  try {
    response = await endpoint.fetch(endpoint.url, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Accept: "application/json",
        Authorization: basicAuth(endpoint.clientId, endpoint.clientSecret),
      },
      body,
    });
  } catch {
    throw endpoint.fail("unreachable");
  }
  if (response.status === 400 || response.status === 401) {
    const data = (await response.json().catch(() => ({}))) as { error?: string };
    throw endpoint.fail(data.error === "invalid_grant" ? "reconnect" : "refused", response.status);
  }
  if (!response.ok) throw endpoint.fail("unreachable", response.status);
  const tokens = new OAuth2Tokens(await response.json());
  return {
    accessToken: tokens.accessToken(),
    refreshToken: tokens.refreshToken(),
    expiresAt: Math.min(tokens.accessTokenExpiresAt().getTime(), now + endpoint.maxLifetimeMs),
  };
}

/** A 429's wait is at most this long, this many times; then the tool is "busy" until the next sync. */
const MAX_WAIT_SECONDS = 30;
const MAX_RATE_RETRIES = 3;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What a tool's client says in its own words, for the one failure policy (`policyRequest`). */
export interface FailureWords {
  /** A 429 after MAX_RATE_RETRIES waits, or one asking for more than MAX_WAIT_SECONDS. */
  busy: (response: Response) => BooksError;
  /** A 401 after a refresh, a 403. */
  reconnect: (status: number) => BooksError;
  /** No answer, or a 5xx. */
  unreachable: (status?: number) => BooksError;
  /** Another 4xx, with the tool's words read from its body. */
  refused: (status: number, body: string) => BooksError;
  /** The wait in seconds when a 429 names none (the retry's index). */
  defaultWait: (retry: number) => number;
}

/**
 * One request to an accounting tool under the one failure policy (decisions/060, 061): a 429 waits
 * Retry-After (or the tool's default) at most MAX_WAIT_SECONDS, MAX_RATE_RETRIES times, then the
 * tool is busy; a 401 refreshes the token once, then (and a 403) asks to reconnect; no answer or a
 * 5xx is "did not answer"; another 4xx is refused in the tool's words; 204 and 304 are an empty
 * answer. `send` makes the request with the access token.
 */
export async function policyRequest<T>(
  session: { accessToken: () => Promise<string>; refresh: () => Promise<string> },
  send: (token: string) => Promise<Response>,
  words: FailureWords,
): Promise<T> {
  let token = await session.accessToken();
  let refreshed = false;
  for (let rateRetries = 0; ; ) {
    let response: Response;
    try {
      response = await send(token);
    } catch {
      throw words.unreachable();
    }
    if (response.status === 429) {
      await response.body?.cancel();
      const header = response.headers.get("Retry-After");
      const wait = header === null ? words.defaultWait(rateRetries) : Number(header);
      if (rateRetries >= MAX_RATE_RETRIES || !Number.isFinite(wait) || wait > MAX_WAIT_SECONDS) {
        throw words.busy(response);
      }
      rateRetries += 1;
      await sleep(Math.max(0, wait) * 1000);
      continue;
    }
    if (response.status === 401) {
      await response.body?.cancel();
      if (refreshed) throw words.reconnect(401);
      refreshed = true;
      token = await session.refresh();
      continue;
    }
    if (response.status === 403) {
      await response.body?.cancel();
      throw words.reconnect(403);
    }
    if (response.status === 204 || response.status === 304) return {} as T;
    if (!response.ok) {
      const text = await response.text().catch(() => "");
      if (response.status >= 500) throw words.unreachable(response.status);
      throw words.refused(response.status, text);
    }
    return (await response.json()) as T;
  }
}
