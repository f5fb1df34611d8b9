import { decodeHex, encodeHexLowerCase } from "@oslojs/encoding";
import { generateId, setProfileImage } from "~/auth/index.server";
import { getDb } from "~/db/client.server";
import { IMAGE_TOO_LARGE, MAX_IMAGE_BYTES, UNSUPPORTED_IMAGE } from "~/domain/upload-limits";
import type { AppConfig } from "~/platform/config.server";

const URL_TTL_MS = 60 * 60 * 1000;

export type ImageType = "image/jpeg" | "image/png" | "image/webp";

/** The image type from the file's first bytes (its magic number); the name and declared type are ignored. */
function sniffImageType(bytes: Uint8Array): ImageType | null {
  const starts = (sig: number[], at = 0) => sig.every((b, i) => bytes[at + i] === b);
  if (bytes.length >= 3 && starts([0xff, 0xd8, 0xff])) return "image/jpeg";
  if (bytes.length >= 8 && starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  // RIFF....WEBP
  if (bytes.length >= 12 && starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8))
    return "image/webp";
  return null;
}

/** Every profile photo lives under its owner's id, so a key proves whose it is. */
export function isOwnImageKey(key: string, userId: string) {
  return key.startsWith(`${userId}/`) && /^[a-z0-9]+\/[a-z0-9]+$/.test(key);
}

export class ImageRejected extends Error {}

/**
 * Checks and stores a profile photo in R2 under a key the server makes (never one a client
 * chose); throws ImageRejected for bad input. The caller makes it the profile photo.
 */
export async function storeProfileImage(env: Env, userId: string, body: ArrayBuffer) {
  if (body.byteLength > MAX_IMAGE_BYTES) throw new ImageRejected(IMAGE_TOO_LARGE);
  const type = sniffImageType(new Uint8Array(body));
  if (!type) throw new ImageRejected(UNSUPPORTED_IMAGE);
  const key = `${userId}/${generateId()}`;
  await env.IMAGES.put(key, body, { httpMetadata: { contentType: type } });
  return key;
}

/**
 * Makes a stored photo the profile photo and deletes the object it replaces: an account has one
 * photo in R2. The delete runs after the answer (waitUntil).
 */
export async function replaceProfileImage(
  env: Env,
  ctx: Pick<ExecutionContext, "waitUntil">,
  userId: string,
  key: string,
) {
  let previous: string | null;
  try {
    previous = await setProfileImage(getDb(env.DB), userId, key);
  } catch (error) {
    // Not the photo after all: its object must not stay behind.
    ctx.waitUntil(env.IMAGES.delete(key));
    throw error;
  }
  if (previous && previous !== key) ctx.waitUntil(env.IMAGES.delete(previous));
}

/** What signing an image URL needs from the configuration. */
type SigningConfig = Pick<AppConfig, "IMAGE_URL_SECRET">;

export const IMAGE_URL_SECRET_MISSING = "IMAGE_URL_SECRET is not set: image URLs cannot be signed";

/** The configured secret; there is no built-in key, so a missing one never signs with a public value. */
function signingSecret(config: SigningConfig) {
  if (config.IMAGE_URL_SECRET) return config.IMAGE_URL_SECRET;
  throw new Error(IMAGE_URL_SECRET_MISSING);
}

async function hmac(config: SigningConfig, message: string) {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(signingSecret(config)),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign", "verify"],
  );
  return { key, message: new TextEncoder().encode(message) };
}

/** A signed, expiring URL to a stored image, served by /images/*. Expiry is rounded so URLs cache well. */
export async function signedImageUrl(config: SigningConfig, key: string, now = Date.now()) {
  const expires = Math.ceil((now + URL_TTL_MS) / URL_TTL_MS) * URL_TTL_MS;
  const { key: k, message } = await hmac(config, `${key}:${expires}`);
  const sig = encodeHexLowerCase(new Uint8Array(await crypto.subtle.sign("HMAC", k, message)));
  return `/images/${key}?expires=${expires}&sig=${sig}`;
}

export async function verifyImageSignature(
  config: SigningConfig,
  key: string,
  expires: string | undefined,
  sig: string | undefined,
  now = Date.now(),
) {
  if (!expires || !sig || !/^\d+$/.test(expires) || Number(expires) < now || !/^[0-9a-f]{64}$/.test(sig)) return false;
  const { key: k, message } = await hmac(config, `${key}:${expires}`);
  return crypto.subtle.verify("HMAC", k, new Uint8Array(decodeHex(sig)), message);
}
