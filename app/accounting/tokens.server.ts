/**
 * The accounting tools' tokens at rest (decisions/060): AES-256-GCM through Web Crypto under
 * ACCOUNTING_TOKEN_KEY, with a fresh 96-bit IV per value and the owner's id as additional data, so
 * a ciphertext copied to another account's row does not decrypt. Stored as "v1.<iv>.<ciphertext>"
 * (base64url); the database never holds a plaintext token.
 */
const keys = new Map<string, Promise<CryptoKey>>();

function keyFor(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    const raw = Uint8Array.from(atob(secret), (c) => c.charCodeAt(0));
    key = crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]);
    keys.set(secret, key);
  }
  return key;
}

const b64url = (bytes: Uint8Array) => {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
};
const fromB64url = (text: string) =>
  Uint8Array.from(atob(text.replaceAll("-", "+").replaceAll("_", "/")), (c) => c.charCodeAt(0));

export async function sealToken(secret: string, ownerId: string, token: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: new TextEncoder().encode(ownerId) },
    await keyFor(secret),
    new TextEncoder().encode(token),
  );
  return `v1.${b64url(iv)}.${b64url(new Uint8Array(sealed))}`;
}

/** The token, or null when the value was not sealed for this owner under this key. */
export async function openToken(secret: string, ownerId: string, sealed: string): Promise<string | null> {
  const [version, iv, data] = sealed.split(".");
  if (version !== "v1" || !iv || !data) return null;
  try {
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: fromB64url(iv), additionalData: new TextEncoder().encode(ownerId) },
      await keyFor(secret),
      fromB64url(data),
    );
    return new TextDecoder().decode(plain);
  } catch {
    return null;
  }
}
