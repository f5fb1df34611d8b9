/**
 * Sending from the user's own domain (docs/decisions/059-sending-domains.md): pure rules shared by
 * the Settings tab, the form schema, the mail Worker and the local stand-ins of Resend's Domains
 * API. No I/O.
 */

/** Dunly's own domain: a user cannot claim it, nor any name under it. */
export const DUNLY_DOMAIN = "dunly.app";

/** Where a sending domain stands, as Dunly keeps it (Resend's statuses, folded; see `domainStatusOf`). */
export const SENDING_DOMAIN_STATUSES = ["not_started", "pending", "verified", "failed", "removed"] as const;
export type SendingDomainStatus = (typeof SENDING_DOMAIN_STATUSES)[number];

/**
 * Resend's domain status folded into Dunly's: only "verified" sends; "failed" and
 * "partially_failed" failed; "not_started" until the first check; everything else Resend says
 * (pending, partially_verified, temporary_failure, a status added later) is still pending.
 */
export function domainStatusOf(provider: string): Exclude<SendingDomainStatus, "removed"> {
  if (provider === "verified") return "verified";
  if (provider === "failed" || provider === "partially_failed") return "failed";
  if (provider === "not_started") return "not_started";
  return "pending";
}

/** One DNS record to publish, as Resend lists it. */
export interface DnsRecord {
  /** What it is for: "SPF", "DKIM", "DMARC", "Receiving", "Tracking"… */
  record: string;
  name: string;
  type: string;
  value: string;
  ttl: string | null;
  priority: number | null;
  status: string;
}

/** The From address while the domain is verified. */
export function domainAddress(localPart: string, domain: string): string {
  return `${localPart}@${domain}`;
}

/** Why a typed domain is refused, or null. Expects the ASCII (punycode) form, lower case. */
export function hostnameProblem(host: string): string | null {
  if (host.length === 0) return "Please enter your domain, such as example.com";
  if (host.length > 253) return "A domain has at most 253 characters";
  const labels = host.split(".");
  if (labels.length < 2) return "Please enter a full domain with its ending, such as example.com";
  for (const label of labels) {
    if (label.length === 0) return "A domain has no empty parts (two dots in a row)";
    if (label.length > 63) return "Each part of a domain has at most 63 characters";
    if (!/^[a-z0-9-]+$/.test(label)) return "A domain has only letters, digits, hyphens and dots";
    if (label.startsWith("-") || label.endsWith("-")) return "A part of a domain does not start or end with a hyphen";
  }
  const tld = labels.at(-1) ?? "";
  if (/^\d+$/.test(tld) || !/^(xn--[a-z0-9-]+|[a-z]{2,63})$/.test(tld)) {
    return "Please enter a domain name, not an address: its ending is letters, such as .com";
  }
  if (host === DUNLY_DOMAIN || host.endsWith(`.${DUNLY_DOMAIN}`)) {
    return "This is Dunly's own domain: please enter your business's domain";
  }
  return null;
}

/**
 * What the user typed as a domain, made the name DNS knows: trimmed, a trailing dot dropped,
 * lower case and, for an internationalized name, its ASCII form (münchen.de → xn--mnchen-3ya.de),
 * through the URL parser (UTS 46), which the browser and the Worker both have. Null when it is no
 * host name at all (a URL, an address, spaces).
 */
export function asciiHostname(typed: string): string | null {
  const trimmed = typed.trim().replace(/\.$/, "").normalize("NFC").toLowerCase();
  if (trimmed === "" || /[\s/@:?#\\[\]]/.test(trimmed)) return null;
  try {
    const host = new URL(`http://${trimmed}/`).hostname;
    return host === "" ? null : host;
  } catch {
    return null;
  }
}

/** Why a local part ("billing" of billing@example.com) is refused, or null. Lower case expected. */
export function localPartProblem(local: string): string | null {
  if (local.length === 0) return "Please enter the name before the @, such as billing";
  if (local.length > 64) return "The name before the @ has at most 64 characters";
  if (!/^[a-z0-9](?:[a-z0-9._+-]*[a-z0-9])?$/.test(local) || local.includes("..")) {
    return "Use letters, digits, dots, hyphens, underscores or +, starting and ending with a letter or digit";
  }
  return null;
}

/**
 * The records Resend's answer lists for a new domain, as the local stand-ins make them (app and
 * tests alike): SPF on the return path (MX and TXT on `send.`), DKIM (a TXT key), and DMARC
 * suggested. Names are relative to the domain, as Resend gives them. Deterministic per name.
 */
export function standInRecords(domain: string, status = "not_started"): DnsRecord[] {
  // A key-like value, the same for the same domain (a stand-in needs no real key).
  let hash = 2166136261;
  for (const ch of domain) hash = Math.imul(hash ^ ch.charCodeAt(0), 16777619) >>> 0;
  const key = Array.from({ length: 12 }, (_, i) => ((hash >>> (i % 24)) + i * 7919).toString(36)).join("");
  return [
    {
      record: "SPF",
      name: "send",
      type: "MX",
      value: "feedback-smtp.eu-west-1.amazonses.com",
      ttl: "Auto",
      priority: 10,
      status,
    },
    {
      record: "SPF",
      name: "send",
      type: "TXT",
      value: '"v=spf1 include:amazonses.com ~all"',
      ttl: "Auto",
      priority: null,
      status,
    },
    {
      record: "DKIM",
      name: "resend._domainkey",
      type: "TXT",
      value: `p=MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQ${key.slice(0, 120)}IDAQAB`,
      ttl: "Auto",
      priority: null,
      status,
    },
  ];
}
