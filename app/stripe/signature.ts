/**
 * Stripe's webhook signature (https://docs.stripe.com/webhooks#verify-manually): the header
 * `Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<payload>" with the endpoint's
 * secret>`. The local stand-in signs its events with it (decisions/017) and the tests sign theirs;
 * the webhook endpoints verify with Stripe's SDK (`constructEventAsync`), never with this.
 * Web Crypto only, so it runs in Workers and in Node.
 */
export async function stripeSignatureHeader(
  payload: string,
  secret: string,
  timestampSeconds: number,
): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${timestampSeconds}.${payload}`));
  const hex = [...new Uint8Array(mac)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `t=${timestampSeconds},v1=${hex}`;
}
