/**
 * What a send through the mail Worker answers (its RPC surface, workers/mail/index.ts). Both
 * Workers import these from here: the app's mail client reads them, the mail Worker returns them.
 */
import type { DnsRecord } from "~/domain/sending-domain";

export type SendResult =
  /**
   * Sent. `replayed`: the provider answered that this Idempotency-Key was already used for an
   * e-mail (a 409 invalid_idempotent_request after an attempt whose answer was lost): that earlier
   * request sent it, and nothing was sent now. No id is known then.
   */
  | { ok: true; id: string | null; via: "resend" | "outbox"; attempts: number; replayed?: true }
  | {
      ok: false;
      retryable: boolean;
      status: number | null;
      error: string;
      attempts: number;
      /**
       * Only with the provider's 429 (rate limited): how long to wait before sending again, from its
       * Retry-After header (see `retryAfterMs`). deliver never retries a 429 itself; the caller paces.
       */
      retryAfterMs?: number;
    };

/**
 * Resend's 409 for a known Idempotency-Key with another body: the key's e-mail was already sent
 * (the provider keeps keys 24 hours), and nothing was sent now.
 */
export const INVALID_IDEMPOTENT = "invalid_idempotent_request";

export type BatchSendResult =
  /** Sent: the provider's id of each e-mail, in the order given (null in the dev outbox). */
  | { ok: true; ids: (string | null)[]; via: "resend" | "outbox" }
  /** Some e-mails could not be made (a header, a render): nothing was sent. */
  | { ok: false; invalid: { index: number; error: string }[]; lastLook?: undefined }
  /**
   * The caller's last look, asked after the e-mails were made and just before the request, said
   * they may no longer all go (one was paid, opted out, held meanwhile): nothing was sent.
   */
  | { ok: false; invalid?: undefined; lastLook: false }
  | {
      ok: false;
      invalid?: undefined;
      lastLook?: undefined;
      /** The provider refused the batch as a whole as invalid (4xx): nothing was sent; split it. */
      split: boolean;
      retryable: boolean;
      status: number | null;
      error: string;
      /** With a 429: the provider's Retry-After. */
      retryAfterMs?: number;
      /**
       * The provider's error name, where it says more than the status: `invalid_idempotent_request`
       * (this key already sent a batch with another body: nothing was sent now, and that batch went)
       * or `concurrent_idempotent_requests` (a request under this key is still being processed).
       */
      code?: string;
    };

/** A send that failed: the mail Worker's own answer, or the client's for a call that threw. */
export type SendFailure = Extract<SendResult, { ok: false }>;

/**
 * Asked by the mail Worker once a batch's e-mails are made, just before its request goes to the
 * provider: whether every one of them may still go. Rendering a hundred e-mails takes a while; a
 * debtor who pays or opts out meanwhile must not get one (an RPC callback into the app).
 */
export type LastLook = () => Promise<boolean>;

/**
 * A domain at the provider, as the mail Worker's Domains methods answer it (Resend's GET /domains/:id,
 * read defensively): its id, name, Resend's own status word and the DNS records to publish.
 */
export interface ProviderDomain {
  id: string;
  name: string;
  status: string;
  records: DnsRecord[];
}

/**
 * A call to the provider's Domains API that did not do what was asked: the same shape as a failed
 * send (retryable for 429, 5xx and no answer), and `notFound` when the provider has no such domain.
 */
export type DomainFailure = SendFailure & { notFound?: boolean };

export type DomainResult = { ok: true; domain: ProviderDomain } | DomainFailure;

export type DomainRemoveResult = { ok: true } | DomainFailure;
