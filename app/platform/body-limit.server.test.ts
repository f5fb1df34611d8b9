import { describe, expect, it } from "vitest";
import { BodyTooLarge, MAX_DRAINED_BYTES, readBodyWithin, readFormWithin } from "./body-limit.server";

const MB = 1024 * 1024;

/** A chunked body of `chunks` × 1 MB that counts how many chunks were pulled. */
function endlessBody(chunks: number) {
  const state = { pulled: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (state.pulled >= chunks) return controller.close();
      state.pulled += 1;
      controller.enqueue(new Uint8Array(MB));
    },
  });
  return { stream, state };
}

function post(body: BodyInit, headers: Record<string, string> = {}) {
  return new Request("http://localhost/", { method: "POST", body, headers, duplex: "half" } as RequestInit);
}

describe("readBodyWithin", () => {
  it("stops reading a chunked body as soon as it passes the limit", async () => {
    const { stream, state } = endlessBody(100);
    await expect(readBodyWithin(post(stream), 5 * MB)).rejects.toBeInstanceOf(BodyTooLarge);
    expect(state.pulled).toBeLessThanOrEqual(8);
  });

  it("refuses a declared Content-Length over the limit without reading", async () => {
    const { stream, state } = endlessBody(100);
    const request = post(stream, { "Content-Length": String(100 * MB) });
    await expect(readBodyWithin(request, 5 * MB)).rejects.toBeInstanceOf(BodyTooLarge);
    expect(state.pulled).toBeLessThanOrEqual(2);
  });

  it("with drainUpTo, reads and drops the rest of a body within it before refusing (the browser gets the answer)", async () => {
    const { stream, state } = endlessBody(12);
    await expect(readBodyWithin(post(stream), 5 * MB, { drainUpTo: 32 * MB })).rejects.toBeInstanceOf(BodyTooLarge);
    expect(state.pulled).toBe(12);
    const declared = endlessBody(12);
    const request = post(declared.stream, { "Content-Length": String(12 * MB) });
    await expect(readBodyWithin(request, 5 * MB, { drainUpTo: 32 * MB })).rejects.toBeInstanceOf(BodyTooLarge);
    expect(declared.state.pulled).toBe(12);
  });

  it("with drainUpTo, still cuts off a body that passes it, or declares more", async () => {
    const { stream, state } = endlessBody(100);
    await expect(readBodyWithin(post(stream), 5 * MB, { drainUpTo: 32 * MB })).rejects.toBeInstanceOf(BodyTooLarge);
    expect(state.pulled).toBeGreaterThan(32);
    expect(state.pulled).toBeLessThanOrEqual(36);
    const declared = endlessBody(100);
    const request = post(declared.stream, { "Content-Length": String(100 * MB) });
    await expect(readBodyWithin(request, 5 * MB, { drainUpTo: 32 * MB })).rejects.toBeInstanceOf(BodyTooLarge);
    expect(declared.state.pulled).toBeLessThanOrEqual(2);
  });

  it("returns a body within the limit whole", async () => {
    const bytes = await readBodyWithin(post(new Uint8Array([1, 2, 3])), 3);
    expect([...bytes]).toEqual([1, 2, 3]);
  });
});

describe("readFormWithin", () => {
  it("reads urlencoded and multipart forms", async () => {
    const urlencoded = await readFormWithin(
      post("intent=a&x=%C3%A9", { "Content-Type": "application/x-www-form-urlencoded" }),
    );
    expect("formData" in urlencoded && urlencoded.formData.get("x")).toBe("é");
    const form = new FormData();
    form.set("intent", "b");
    const multipart = await readFormWithin(post(form));
    expect("formData" in multipart && multipart.formData.get("intent")).toBe("b");
  });

  it("calls a broken multipart body or another content type malformed", async () => {
    const broken = post("garbage", { "Content-Type": "multipart/form-data; boundary=xyz" });
    expect(await readFormWithin(broken)).toEqual({ error: "malformed" });
    expect(await readFormWithin(post("{}", { "Content-Type": "application/json" }))).toEqual({ error: "malformed" });
  });

  it("calls a body over the limit too large", async () => {
    const body = `x=${"a".repeat(2000)}`;
    const request = post(body, { "Content-Type": "application/x-www-form-urlencoded" });
    expect(await readFormWithin(request, 1000)).toEqual({ error: "too-large" });
  });

  it("reads a page's form past its limit to the end before calling it too large, up to MAX_DRAINED_BYTES", async () => {
    const { stream, state } = endlessBody(8);
    const request = post(stream, { "Content-Type": "multipart/form-data; boundary=xyz" });
    expect(await readFormWithin(request, 2 * MB)).toEqual({ error: "too-large" });
    expect(state.pulled).toBe(8);
    expect(MAX_DRAINED_BYTES).toBeGreaterThanOrEqual(8 * MB);
  });
});
