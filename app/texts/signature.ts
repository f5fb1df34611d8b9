/**
 * Twilio's request signature (X-Twilio-Signature, decisions/068): HMAC-SHA1 with the account's auth
 * token over the full URL Twilio requested (scheme, host, path and query string) followed by every
 * POST parameter's name and value, sorted by name, base64-encoded. Web Crypto only, so it runs in
 * the Worker, the stand-in and the tests alike.
 */

/** The form parameters as name/value pairs (a repeated name keeps each value). */
export type TwilioParams = ReadonlyArray<readonly [string, string]>;

/** The string Twilio signs: the URL, then each parameter's name and value, by name (then value). */
export function signedPayload(url: string, params: TwilioParams): string {
  const sorted = [...params].sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
  return url + sorted.map(([name, value]) => name + value).join("");
}

const encoder = new TextEncoder();

async function hmacSha1(key: string, data: string): Promise<Uint8Array> {
  const cryptoKey = await crypto.subtle.importKey("raw", encoder.encode(key), { name: "HMAC", hash: "SHA-1" }, false, [
    "sign",
  ]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", cryptoKey, encoder.encode(data)));
}

function base64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The X-Twilio-Signature Twilio would send for this request (the stand-in signs its callbacks with it). */
export async function twilioSignature(authToken: string, url: string, params: TwilioParams): Promise<string> {
  return base64(await hmacSha1(authToken, signedPayload(url, params)));
}

/** Whether `signature` is Twilio's for this URL and these parameters; compared in constant time. */
export async function verifyTwilioSignature(
  authToken: string,
  url: string,
  params: TwilioParams,
  signature: string | null | undefined,
): Promise<boolean> {
  if (!signature || signature.length > 200) return false;
  const expected = await twilioSignature(authToken, url, params);
  const a = encoder.encode(expected);
  const b = encoder.encode(signature);
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}
