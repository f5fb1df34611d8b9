/** The largest form body a page posts (the profile photo form allows more). */
export const MAX_FORM_BYTES = 1024 * 1024;

/** A body over the limit; reading stopped at the limit, whatever Content-Length said. */
export class BodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`The request body is larger than ${limit} bytes`);
  }
}

/**
 * Reads a request body up to `maxBytes`, counting while it streams: a chunked or lying upload is
 * cancelled as soon as it passes the limit instead of being buffered whole. Throws BodyTooLarge.
 */
export async function readBodyWithin(request: Request, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(request.headers.get("Content-Length"));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await request.body?.cancel().catch(() => {});
    throw new BodyTooLarge(maxBytes);
  }
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new BodyTooLarge(maxBytes);
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return body;
}

/** A posted form read within `maxBytes`: the form, or why there is none. */
export type FormRead = { formData: FormData } | { error: "too-large" | "malformed" };

/**
 * The request's form (urlencoded or multipart), read within `maxBytes`. A body that is no form (a
 * broken multipart envelope, another content type) is "malformed" rather than an exception.
 */
export async function readFormWithin(request: Request, maxBytes = MAX_FORM_BYTES): Promise<FormRead> {
  let body: Uint8Array<ArrayBuffer>;
  try {
    body = await readBodyWithin(request, maxBytes);
  } catch (error) {
    if (error instanceof BodyTooLarge) return { error: "too-large" };
    // The client went away or sent a broken chunked body.
    return { error: "malformed" };
  }
  const contentType = request.headers.get("Content-Type") ?? "";
  try {
    return { formData: await new Response(body, { headers: { "Content-Type": contentType } }).formData() };
  } catch {
    return { error: "malformed" };
  }
}
