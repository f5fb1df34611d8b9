import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { textChunks } from "./react-dom-text-chunks";

const require = createRequire(import.meta.url);
const file = join(dirname(require.resolve("react-dom/package.json")), "cjs", "react-dom-server.node.production.js");
const source = readFileSync(file, "utf8");

// The renderer is React's production build: it must see React's production build too (the tests
// run with NODE_ENV=test, which would load React's development build).
const fromRenderer = createRequire(file);
const react = fromRenderer(
  join(dirname(fromRenderer.resolve("react/package.json")), "cjs", "react.production.js"),
) as typeof import("react");
const { createElement: h, Suspense } = react;
const rendererRequire = (id: string) => (id === "react" ? react : fromRenderer(id));

type Render = (
  children: unknown,
  options?: object,
) => Promise<ReadableStream<Uint8Array> & { allReady: Promise<void> }>;

/** React's Node stream renderer evaluated from `code` (its own CommonJS module, its own state). */
function renderer(code: string): Render {
  const module = { exports: {} as { renderToReadableStream: Render } };
  new Function("module", "exports", "require", code)(module, module.exports, rendererRequire);
  return module.exports.renderToReadableStream;
}

async function bytes(render: Render, tree: unknown) {
  const stream = await render(tree, { nonce: "n0nce" });
  await stream.allReady;
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) chunks.push(chunk);
  return { html: Buffer.concat(chunks).toString("utf8"), chunks: chunks.length };
}

interface Later {
  done: boolean;
  promise: Promise<void>;
}

/** Suspends until `later` is done (a boundary completed after the shell). */
function LaterText({ later }: { later: Later }) {
  if (!later.done) throw later.promise;
  return h("p", { className: "later" }, "Zoë’s € 12,50 — done");
}

/** A page-like tree: many small pieces, attributes, non-ASCII text, and a boundary that suspends. */
function page(rows: number) {
  const later: Later = { done: false, promise: Promise.resolve() };
  later.promise = new Promise<void>((resolve) =>
    setTimeout(() => {
      later.done = true;
      resolve();
    }, 5),
  );
  return h(
    "html",
    { lang: "en" },
    h("head", null, h("title", null, "Dunly · Übersicht")),
    h(
      "body",
      null,
      h(
        "table",
        { className: "list-table" },
        h(
          "tbody",
          null,
          Array.from({ length: rows }, (_, i) =>
            h(
              "tr",
              { key: i },
              h("td", { "data-label": "Name" }, `Débiteur ${i} 🙂`),
              h("td", null, h("input", { type: "checkbox", "aria-label": `Select ${i}` })),
              h("td", { className: "text-success" }, `$${i}.00 paid of €${i * 3}.50`),
            ),
          ),
        ),
      ),
      h(Suspense, { fallback: h("span", null, "…") }, h(LaterText, { later })),
    ),
  );
}

describe("textChunks (the build's edit of React's Node stream renderer)", () => {
  it("renders the same bytes as React's own renderer, in fewer chunks", async () => {
    const own = await bytes(renderer(source), page(400));
    const edited = await bytes(renderer(textChunks(source)), page(400));
    expect(edited.html).toBe(own.html);
    expect(edited.html).toContain("Zoë’s € 12,50");
    expect(edited.chunks).toBeLessThan(own.chunks);
  });

  it("renders a small page the same", async () => {
    const own = await bytes(renderer(source), h("div", { id: "x" }, "hé"));
    const edited = await bytes(renderer(textChunks(source)), h("div", { id: "x" }, "hé"));
    expect(edited.html).toBe(own.html);
  });

  it("decides alike where a large ASCII boundary goes (sent apart, past React's 12,800)", async () => {
    const tree = () => h("main", null, h(Suspense, { fallback: "…" }, h("p", null, "a".repeat(14_000))));
    const own = await bytes(renderer(source), tree());
    const edited = await bytes(renderer(textChunks(source)), tree());
    expect(own.html).toContain("<div hidden");
    expect(edited.html).toBe(own.html);
  });

  it("counts non-ASCII text by its length: a boundary React sends apart by its UTF-8 size stays in place", async () => {
    // 5,000 characters, 15,000 bytes: over React's 12,800 in bytes, under it in length.
    const tree = () => h("main", null, h(Suspense, { fallback: "…" }, h("p", null, "€".repeat(5_000))));
    const own = await bytes(renderer(source), tree());
    const edited = await bytes(renderer(textChunks(source)), tree());
    expect(own.html).toContain("<div hidden");
    expect(edited.html).not.toContain("<div hidden");
    expect(edited.html).toContain(`<main><!--$--><p>${"€".repeat(5_000)}</p><!--/$--></main>`);
  });

  it("refuses a renderer that is not the one it was written for", () => {
    expect(() => textChunks(source.replace("function completeWriting(destination) {", "function other() {"))).toThrow(
      /completeWriting/,
    );
    const twice = `${source}\nfunction writeChunk(destination, chunk) {\n}`;
    expect(() => textChunks(twice)).toThrow(/writeChunk/);
  });
});
