import { OAuth2Tokens } from "arctic";
import type { BooksError, BooksErrorKind, BooksGrant } from "./books";

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
