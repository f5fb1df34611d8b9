import type { DnsRecord } from "../../app/domain/sending-domain";
import type { DomainRemoveResult, DomainResult, ProviderDomain } from "../../app/mail/contract";
import { resendDomainsStandIn } from "../../app/mail/standin/resend-domains.server";
import type { MailConfig } from "./config";
import {
  isRetryable,
  type ProviderAnswer,
  type ProviderFetch,
  RESEND_API_KEY_MISSING,
  RETRY_DELAYS_MS,
  requestProvider,
  retryAfterMs,
  sleep,
} from "./send";

/**
 * Resend's Domains API (docs/decisions/059-sending-domains.md): create, read, verify and remove
 * the user's sending domain, with the sends' failure policy. Never throws: a result the app
 * records. With RESEND_API_KEY the requests go to Resend; without it development and test are
 * answered by the local stand-in (the same requests and parsing, its rows in D1), and production
 * fails, naming the missing key. 5xx and unanswered reads, verifies and removals are tried again
 * twice with backoff (they change nothing twice); a create is not (a second one would be refused as
 * a duplicate: the caller asks again, and a lost create is found by its name); a 429 comes back at
 * once, retryable, with the provider's Retry-After.
 */

type Route = { method: "GET" | "POST" | "DELETE"; path: string; payload?: string; retry: boolean };

function fetcherFor(db: D1Database, config: MailConfig): ProviderFetch | null {
  if (config.RESEND_API_KEY) return fetch;
  if (config.APP_ENV === "development" || config.APP_ENV === "test") return resendDomainsStandIn(db);
  return null;
}

type Answer = Extract<ProviderAnswer, { ok: true }> | Extract<DomainResult, { ok: false }>;

async function request(db: D1Database, config: MailConfig, route: Route): Promise<Answer> {
  const fetcher = fetcherFor(db, config);
  if (!fetcher) return { ok: false, retryable: false, status: null, error: RESEND_API_KEY_MISSING, attempts: 0 };
  let attempts = 0;
  for (;;) {
    attempts += 1;
    const answer = await requestProvider(config, route.method, route.path, route.payload, undefined, fetcher);
    if (answer.ok) return answer;
    const { status } = answer;
    const error = `Resend${status ? ` ${status}` : ""}: ${answer.message}`;
    if (status === 429) {
      return { ok: false, retryable: true, status, error, attempts, retryAfterMs: retryAfterMs(answer.retryAfter) };
    }
    const retryable = isRetryable(status, answer.name);
    const delay = RETRY_DELAYS_MS[attempts - 1];
    if (!retryable || !route.retry || delay === undefined) {
      return { ok: false, retryable, status, error, attempts, ...(status === 404 ? { notFound: true } : {}) };
    }
    await sleep(delay);
  }
}

const str = (v: unknown) => (typeof v === "string" ? v : "");

/** A record of Resend's answer, read defensively (every field a string but the priority). */
function recordOf(raw: unknown): DnsRecord | null {
  if (typeof raw !== "object" || raw === null) return null;
  const r = raw as Record<string, unknown>;
  if (!str(r.type) || !str(r.name)) return null;
  return {
    record: str(r.record),
    name: str(r.name),
    type: str(r.type),
    value: str(r.value),
    ttl: typeof r.ttl === "string" || typeof r.ttl === "number" ? String(r.ttl) : null,
    priority: typeof r.priority === "number" ? r.priority : null,
    status: str(r.status) || "not_started",
  };
}

/** Resend's domain JSON as Dunly reads it; null when it is not one (no id or name). */
export function domainOf(body: Record<string, unknown> | null): ProviderDomain | null {
  if (!body || !str(body.id) || !str(body.name)) return null;
  const records = Array.isArray(body.records) ? body.records.map(recordOf).filter((r) => r !== null) : [];
  return { id: str(body.id), name: str(body.name), status: str(body.status) || "not_started", records };
}

const unreadable = (what: string): DomainResult => ({
  ok: false,
  retryable: true,
  status: null,
  error: `Resend: the answer to ${what} is not a domain`,
  attempts: 1,
});

/** GET /domains/:id. */
export async function getDomain(db: D1Database, config: MailConfig, id: string): Promise<DomainResult> {
  const answer = await request(db, config, { method: "GET", path: `/domains/${encodeURIComponent(id)}`, retry: true });
  if (!answer.ok) return answer;
  const domain = domainOf(answer.body);
  return domain ? { ok: true, domain } : unreadable("GET /domains/:id");
}

/** The domain of that name at the provider (GET /domains, then its own GET), or null. */
async function findByName(db: D1Database, config: MailConfig, name: string): Promise<DomainResult | null> {
  const list = await request(db, config, { method: "GET", path: "/domains", retry: true });
  if (!list.ok) return list;
  const data = Array.isArray(list.body?.data) ? (list.body.data as Record<string, unknown>[]) : [];
  const found = data.find((d) => str(d?.name).toLowerCase() === name);
  return found && str(found.id) ? getDomain(db, config, str(found.id)) : null;
}

/**
 * POST /domains {name}. The app checks first that no other account of Dunly holds the name; a
 * name the provider already has is then ours, from a create whose answer was lost: it is read back.
 * Dunly's own sending domain (MAIL_FROM_ADDRESS's, or any name under it) is refused.
 */
export async function createDomain(db: D1Database, config: MailConfig, name: string): Promise<DomainResult> {
  const own = config.MAIL_FROM_ADDRESS.split("@")[1]?.toLowerCase() ?? "";
  if (own && (name === own || name.endsWith(`.${own}`))) {
    return { ok: false, retryable: false, status: null, error: "This is Dunly's own sending domain", attempts: 0 };
  }
  const answer = await request(db, config, {
    method: "POST",
    path: "/domains",
    payload: JSON.stringify({ name }),
    retry: false,
  });
  if (answer.ok) {
    const domain = domainOf(answer.body);
    return domain ? { ok: true, domain } : unreadable("POST /domains");
  }
  if (answer.status === 403 || answer.status === 409 || answer.status === 422) {
    if (/already|registered|exists/i.test(answer.error)) return (await findByName(db, config, name)) ?? answer;
  }
  return answer;
}

/** POST /domains/:id/verify (Resend checks the DNS again), then GET /domains/:id for where it stands. */
export async function verifyDomain(db: D1Database, config: MailConfig, id: string): Promise<DomainResult> {
  const path = `/domains/${encodeURIComponent(id)}`;
  const started = await request(db, config, { method: "POST", path: `${path}/verify`, retry: true });
  if (!started.ok) return started;
  return getDomain(db, config, id);
}

/** DELETE /domains/:id; a domain the provider no longer has is removed already. */
export async function removeDomain(db: D1Database, config: MailConfig, id: string): Promise<DomainRemoveResult> {
  const answer = await request(db, config, {
    method: "DELETE",
    path: `/domains/${encodeURIComponent(id)}`,
    retry: true,
  });
  if (answer.ok || answer.notFound) return { ok: true };
  return answer;
}
