/** The largest form body a page posts (the profile photo form allows more). */
export const MAX_FORM_BYTES = 1024 * 1024;

/** A body over the limit; reading stopped at the limit, whatever Content-Length said. */
export class BodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`The request body is larger than ${limit} bytes`);
  }
}

/**
 * How much of a page's form past its limit is still read, and dropped, before it is refused: a
 * browser posting a document form shows the answer only once it has sent the whole body. Refused
 * unread, the upload is cut off (workerd closes the connection under it) and the user gets the
 * browser's connection error instead of the page saying why. Past this,
 * the connection is cut as before.
 */
export const MAX_DRAINED_BYTES = 32 * 1024 * 1024;

/**
 * Reads a request body up to `maxBytes`, counting while it streams: nothing past the limit is kept,
 * whatever Content-Length said. Throws BodyTooLarge. Past the limit the rest is cancelled at once,
 * or, with `drainUpTo`, read and dropped while the whole body stays within that many bytes (a
 * page's form, so that the browser gets the refusal: MAX_DRAINED_BYTES).
 */
export async function readBodyWithin(
  request: Request,
  maxBytes: number,
  { drainUpTo = 0 }: { drainUpTo?: number } = {},
): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(request.headers.get("Content-Length"));
  if (Number.isFinite(declared) && declared > maxBytes) {
    // Nothing read yet: drained only when the whole declared body fits.
    await refuse(request.body?.getReader(), 0, declared <= drainUpTo ? drainUpTo : -1);
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
      await refuse(reader, size, drainUpTo);
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

/**
 * The rest of a body over its limit, `seen` bytes of it read or declared: read and dropped while the
 * whole stays within `drainUpTo`, else cancelled.
 */
async function refuse(reader: ReadableStreamDefaultReader<Uint8Array> | undefined, seen: number, drainUpTo: number) {
  if (!reader) return;
  let size = seen;
  try {
    while (size <= drainUpTo) {
      const { done, value } = await reader.read();
      if (done) return;
      size += value.byteLength;
    }
  } catch {
    return;
  }
  await reader.cancel().catch(() => {});
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
    body = await readBodyWithin(request, maxBytes, { drainUpTo: MAX_DRAINED_BYTES });
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
