import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { debtorRowsOf, orgRowsOf, schedulesOf, userRow } from "./fixtures";
import { ORIGIN, postForm, request, uniqueIp } from "./helpers";

/** Spec §5 messages, spelled out here (not imported) so a changed message fails the tests. */
export const MSG = {
  debtorName: "Please enter the full name of the debtor",
  debtorEmail: "Please enter a valid email",
  debt: "Please enter a number greater than 0",
  userName: "Please enter your full name",
  orgName: "Please enter the name of the organization",
  orgAddress: "Please enter the address of the organization",
  unsupportedImage: "Unsupported image type. We support JPEG, PNG and WebP.",
  imageTooLarge: "The image is too large. Please choose one of at most 5 MB.",
} as const;

export const FIVE_MB = 5 * 1024 * 1024;

// biome-ignore lint/suspicious/noExplicitAny: JSON answers are checked field by field.
export type Json = any;

export interface ApiOptions {
  cookie?: string;
  /** A JSON body (serialized), or a raw body with `raw`. */
  json?: unknown;
  raw?: BodyInit | null;
  headers?: Record<string, string>;
  /** The Origin header; defaults to http://localhost for non-GET requests, `null` leaves it out. */
  originHeader?: string | null;
}

/** A request to the JSON API as the browser's fetch makes it: same-origin Origin header and the session cookie. */
export function api(method: string, path: string, options: ApiOptions = {}) {
  const headers = new Headers(options.headers);
  if (options.cookie) headers.set("Cookie", options.cookie);
  const originHeader = options.originHeader === undefined ? (method === "GET" ? null : ORIGIN) : options.originHeader;
  if (originHeader !== null) headers.set("Origin", originHeader);
  let body: BodyInit | null | undefined = options.raw;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    if (!headers.has("Content-Type")) headers.set("Content-Type", "application/json");
  }
  return request(`/api${path}`, { method, headers, body: body ?? undefined });
}

/** The API call's status and parsed JSON body; fails the test when the body is not JSON. */
export async function apiJson(
  method: string,
  path: string,
  options: ApiOptions = {},
): Promise<{ status: number; body: Json; res: Response }> {
  const res = await api(method, path, options);
  const text = await res.text();
  expect(
    res.headers.get("Content-Type") ?? "",
    `${method} ${path} answered ${res.status}: ${text.slice(0, 200)}`,
  ).toContain("application/json");
  return { status: res.status, body: JSON.parse(text), res };
}

/**
 * Decodes a single-fetch (`.data`) answer: React Router's turbo-stream, first line only, for the
 * plain objects, arrays and primitives our actions return.
 */
export async function decodeTurbo(res: Response): Promise<Json> {
  const text = await res.text();
  const values = JSON.parse(text.split("\n")[0]!) as unknown[];
  const hydrate = (index: number): unknown => {
    switch (index) {
      case -7:
        return undefined;
      case -5:
        return null;
      case -2:
        return Number.NaN;
      case -6:
        return Number.POSITIVE_INFINITY;
      case -3:
        return Number.NEGATIVE_INFINITY;
      case -4:
        return -0;
    }
    const value = values[index];
    if (!value || typeof value !== "object") return value;
    if (Array.isArray(value)) {
      if (typeof value[0] === "string") return { $type: value[0], value: value[1] };
      return value.map((i) => hydrate(i as number));
    }
    const out: Record<string, unknown> = {};
    for (const [k, i] of Object.entries(value)) out[String(hydrate(Number(k.slice(1))))] = hydrate(i as number);
    return out;
  };
  return hydrate(0);
}

/**
 * Submits a page form the way its fetcher does (POST <path>.data, urlencoded), and returns the
 * status and the action's data ({ intent, ok, message, result }).
 */
export async function formAction(path: string, fields: Record<string, string>, cookie?: string) {
  const url = new URL(path, ORIGIN);
  const res = await postForm(`${url.pathname}.data${url.search}`, fields, { cookie });
  const decoded = res.headers.get("Content-Type")?.includes("text/x-script")
    ? await decodeTurbo(res)
    : await res.text();
  return { status: res.status, data: decoded?.data as Json, raw: decoded, res };
}

/** The field errors conform's reply carries: { full_name: [...], ... }. */
export function replyErrors(data: Json): Record<string, string[]> {
  return (data?.result?.error ?? {}) as Record<string, string[]>;
}

/** A multipart POST like the photo form makes it (document or `.data` request). */
export function postMultipart(path: string, form: FormData, cookie?: string) {
  const headers = new Headers({ Origin: ORIGIN, "CF-Connecting-IP": uniqueIp() });
  if (cookie) headers.set("Cookie", cookie);
  return request(path, { method: "POST", headers, body: form });
}

/** The profile-photo form with a file as the browser sends it. */
export function photoForm(bytes: Uint8Array<ArrayBuffer> | string, name = "photo.png", type = "image/png") {
  const form = new FormData();
  form.set("intent", "profile-photo");
  form.set("photo", new File([bytes], name, { type }));
  return form;
}

function fromBase64(b64: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

/** Real, tiny images (1×1), so their magic bytes are what a browser would upload. */
export const IMAGES: Record<"png" | "jpeg" | "webp" | "html", Uint8Array<ArrayBuffer>> = {
  png: fromBase64("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII="),
  jpeg: fromBase64(
    "/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=",
  ),
  webp: fromBase64("UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA=="),
  html: new TextEncoder().encode("<html><body><script>alert(document.cookie)</script></body></html>"),
};

/** A buffer of `size` bytes that starts like a PNG. */
export function bigPng(size: number) {
  const bytes = new Uint8Array(size);
  bytes.set(IMAGES.png);
  return bytes;
}

// D1 and R2 access -------------------------------------------------------------------------------

/** The R2 objects under a user's prefix: key, size and etag. */
export async function imagesOf(userId: string) {
  const listed = await env.IMAGES.list({ prefix: `${userId}/` });
  return listed.objects
    .map((o) => ({ key: o.key, size: o.size, etag: o.etag }))
    .sort((a, b) => a.key.localeCompare(b.key));
}

/** Everything a user owns, to compare before and after another user's attempts. */
export async function snapshot(userId: string) {
  return {
    user: await userRow(userId),
    debtors: await debtorRowsOf(userId),
    organizations: await orgRowsOf(userId),
    schedules: await schedulesOf(userId),
    images: await imagesOf(userId),
  };
}

/** Adds a debtor through the API and returns its JSON. */
export async function addDebtor(cookie: string, fields: Record<string, unknown> = {}) {
  const { status, body } = await apiJson("POST", "/debtors/add", {
    cookie,
    // allow_duplicate: a test's second "Dana" is a debtor of its own, not an invoice of the first
    // (tests/integration/invoices.test.ts tests the twin offer).
    json: {
      full_name: "Dana Debtor",
      email: "dana@example.com",
      debt: 100,
      active_strategy: 1,
      allow_duplicate: true,
      ...fields,
    },
  });
  expect(status, JSON.stringify(body)).toBe(200);
  return body.data as Json;
}

/** Adds an organization through the API and returns its JSON. */
export async function addOrg(cookie: string, fields: Record<string, unknown> = {}) {
  const { status, body } = await apiJson("POST", "/org/add", {
    cookie,
    json: { name: "Acme Ltd", address: "1 Main St", ...fields },
  });
  expect(status, JSON.stringify(body)).toBe(200);
  return body.data as Json;
}

/**
 * Uploads through PUT /api/r2, naming `<userId>/<name>` as the spec's client does; returns the key
 * the server stored it under (it is the profile photo from then on).
 */
export async function uploadImage(
  cookie: string,
  userId: string,
  bytes: Uint8Array<ArrayBuffer> = IMAGES.png,
  name = "photo",
) {
  const key = `${userId}/${name}`;
  const { status, body } = await apiJson("PUT", `/r2?key=${encodeURIComponent(key)}`, {
    cookie,
    raw: bytes,
    headers: { "Content-Type": "image/png" },
  });
  expect(status, JSON.stringify(body)).toBe(200);
  // The server stores the photo under a key of its own (one photo per account) and answers it.
  return (body as { key: string }).key;
}

/** Waits (briefly) for work the Worker finishes after answering (ctx.waitUntil). */
export async function eventually(check: () => Promise<boolean>, timeoutMs = 2000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return check();
}

/** The key of a user's only R2 object once the deletes that run after the answers are done. */
export async function onlyImageOf(userId: string) {
  expect(await eventually(async () => (await imagesOf(userId)).length === 1)).toBe(true);
  return (await imagesOf(userId))[0]!.key;
}
