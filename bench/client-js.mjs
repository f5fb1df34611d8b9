// First-load JavaScript per page, from what the server really sends: the page's HTML names its
// modules (modulepreload links, script src, the inline module's imports); each is followed through
// its static imports, read from the client build, gzipped and summed. Dynamic imports of those
// modules (code loaded after hydration or on demand, e.g. the dashboard's chart) are summed apart.
// One function, so it can be swapped for scripts/client-js.mjs (the client build's manifest).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

const STATIC_IMPORT = /(?:\bfrom|\bimport)\s*["'`](\.\/[^"'`]+\.js)["'`]/g;
const DYNAMIC_IMPORT = /\bimport\(\s*["'`](\.\/[^"'`]+\.js)["'`]\s*\)/g;
const HTML_MODULE =
  /<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"|<script[^>]+src="([^"]+\.js)"|import\s*(?:[^"'`;]*?\bfrom\s*)?["'](\/[^"']+\.js)["']/g;

/** The module paths (as "/assets/x.js") an HTML page loads at once. */
export function htmlModules(html) {
  const found = new Set();
  for (const m of html.matchAll(HTML_MODULE)) found.add(m[1] ?? m[2] ?? m[3]);
  return [...found].filter((p) => p.startsWith("/"));
}

/** The module paths a module at `path` ("/assets/x.js") imports statically, as paths beside it. */
export function staticImports(text, path) {
  const dir = path.slice(0, path.lastIndexOf("/") + 1);
  return [...text.matchAll(STATIC_IMPORT)].map((m) => dir + m[1].slice(2));
}

/**
 * `{ files, gzip, raw, lazy: { files, gzip, roots } }` for a page's HTML: `gzip` is the first-load
 * JavaScript (bytes, each file gzipped on its own, as a browser fetches them), `lazy` what its
 * modules import dynamically beyond that (`roots`: each dynamic import and what it alone adds).
 */
export function firstLoadJs(html, clientDir = "build/client") {
  const sizes = new Map();
  const read = (path) => {
    const file = join(clientDir, path);
    if (!existsSync(file)) return null;
    const text = readFileSync(file, "utf8");
    if (!sizes.has(path)) sizes.set(path, { raw: Buffer.byteLength(text), gzip: gzipSync(text).length });
    return text;
  };
  const closure = (roots, into, dynamic) => {
    const stack = [...roots];
    while (stack.length > 0) {
      const path = stack.pop();
      if (into.has(path)) continue;
      const text = read(path);
      if (text === null) continue;
      into.add(path);
      const dir = path.slice(0, path.lastIndexOf("/") + 1);
      stack.push(...staticImports(text, path));
      if (dynamic) for (const m of text.matchAll(DYNAMIC_IMPORT)) dynamic.add(dir + m[1].slice(2));
    }
  };
  const first = new Set();
  const dynamicRoots = new Set();
  closure(htmlModules(html), first, dynamicRoots);
  const sum = (set, key) => [...set].reduce((s, p) => s + (sizes.get(p)?.[key] ?? 0), 0);
  // Each dynamic import on its own (what it adds beyond the first load), then all of them together.
  const roots = [...dynamicRoots]
    .filter((p) => !first.has(p))
    .map((module) => {
      const own = new Set();
      closure([module], own, null);
      for (const p of first) own.delete(p);
      return { module, gzip: sum(own, "gzip") };
    });
  const lazy = new Set();
  closure(
    roots.map((r) => r.module),
    lazy,
    null,
  );
  for (const p of first) lazy.delete(p);
  return {
    files: first.size,
    raw: sum(first, "raw"),
    gzip: sum(first, "gzip"),
    lazy: { files: lazy.size, gzip: sum(lazy, "gzip"), roots },
  };
}
