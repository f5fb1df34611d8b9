// `node bench/page-js.mjs [path…]`: the JavaScript a browser really downloads for each page without
// any interaction, first load and after hydration, gzip.
//
// Debian's Chromium (scripts/chromium.mjs, as playwright.config.ts) through
// Playwright against the production build served like the benchmark (bench/server.mjs: the copy of
// the build, `BENCH_SNAPSHOT=1` or `npm run bench` makes it; BENCH_PORT, default 8873), signed in on
// the seeded account (1,000 debtors, 1,000 schedules, 20,000 deliveries; the session cookie the
// benchmark knows). `/` is loaded signed out. Each page is loaded in a fresh browser context (an
// empty cache), then the script waits for `networkidle` and PAGE_JS_SETTLE_MS (3,000) more, so
// what loads on idle is counted. Every response whose path ends in .js is gzipped on its own (as
// scripts/client-js.mjs counts: KB = 1,000 bytes).
//
// "first load" is what the HTML names (modulepreload links, script src, the inline module's
// imports) with its static imports, transitively: what must be fetched to hydrate. "after" is
// every other .js fetched without interaction (dynamic imports run on mount or on idle).
//
//   PAGE_JS_JSON=file   also writes the figures as JSON (scripts/check-bundles.mjs reads the same
//                       function, measurePageJs, when asked to)
import { writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { chromium } from "@playwright/test";
import { chromiumLaunchOptions } from "../scripts/chromium.mjs";
import { htmlModules, staticImports } from "./client-js.mjs";
import { seedAccount } from "./seed.mjs";
import { snapshotBuild, startServer, stopAll } from "./server.mjs";

export const KB = 1000;

/** The signed-in pages measured by default (`:id` is a seeded debtor), and `/` signed out. */
export const DEFAULT_PATHS = [
  "/",
  "/dashboard",
  "/schedule",
  "/debtors-list",
  "/schedules-list",
  "/report",
  "/iam",
  "/pricing",
  "/debtors/:id",
  "/debtors/import",
];

/**
 * Loads `url` in a fresh context of `browser` (cookies: `cookies`), waits for networkidle and
 * `settleMs`, and returns { url, status, first: [{ path, gzip }], after: [...], firstGzip,
 * afterGzip, total }.
 */
export async function measurePageJs(browser, url, { cookies = [], settleMs = 3_000, viewport } = {}) {
  const context = await browser.newContext(viewport ? { viewport } : {});
  if (cookies.length > 0) await context.addCookies(cookies);
  const page = await context.newPage();
  const bodies = new Map();
  const pending = [];
  page.on("response", (response) => {
    const path = new URL(response.url()).pathname;
    if (!path.endsWith(".js") || response.request().resourceType() === "document") return;
    pending.push(
      response.body().then(
        (body) => bodies.set(path, body),
        () => {},
      ),
    );
  });
  try {
    const response = await page.goto(url, { waitUntil: "networkidle" });
    const html = (await response?.text()) ?? "";
    await page.waitForTimeout(settleMs);
    await page.waitForLoadState("networkidle");
    await Promise.all(pending);
    // The HTML's modules and their static imports: the first load.
    const first = new Set();
    const stack = htmlModules(html);
    while (stack.length > 0) {
      const path = stack.pop();
      if (first.has(path) || !bodies.has(path)) continue;
      first.add(path);
      stack.push(...staticImports(bodies.get(path).toString("utf8"), path));
    }
    const row = (path) => ({ path, gzip: gzipSync(bodies.get(path)).length });
    const firstRows = [...first].map(row).sort((a, b) => b.gzip - a.gzip);
    const afterRows = [...bodies.keys()]
      .filter((p) => !first.has(p))
      .map(row)
      .sort((a, b) => b.gzip - a.gzip);
    const sum = (rows) => rows.reduce((s, r) => s + r.gzip, 0);
    return {
      url: page.url(),
      status: response?.status() ?? 0,
      first: firstRows,
      after: afterRows,
      firstGzip: sum(firstRows),
      afterGzip: sum(afterRows),
      total: sum(firstRows) + sum(afterRows),
    };
  } finally {
    await context.close();
  }
}

const kb = (bytes) => `${(bytes / KB).toFixed(1)} KB`;

/** The per-page listing this script prints. */
export function formatPage(path, m) {
  const lines = [
    `${path} -> ${new URL(m.url).pathname}${new URL(m.url).search} (${m.status}): ${kb(m.total)} gzip, ` +
      `${m.first.length + m.after.length} files (first load ${kb(m.firstGzip)}, after hydration ${kb(m.afterGzip)})`,
  ];
  for (const [label, rows] of [
    ["first load", m.first],
    ["after hydration", m.after],
  ]) {
    lines.push(`  ${label}:`);
    for (const r of rows) lines.push(`    ${kb(r.gzip).padStart(9)}  ${r.path.replace(/^\/assets\//, "")}`);
  }
  return lines.join("\n");
}

async function main() {
  const port = Number(process.env.BENCH_PORT ?? 8873);
  const settleMs = Number(process.env.PAGE_JS_SETTLE_MS ?? 3_000);
  const paths = process.argv.slice(2).length > 0 ? process.argv.slice(2) : DEFAULT_PATHS;
  if (process.env.BENCH_SNAPSHOT === "1") snapshotBuild();
  let account;
  const server = await startServer({
    port,
    persist: `.wrangler/page-js-state-${port}`,
    beforeStart: (file) => {
      account = seedAccount(file, { tag: "main", debtors: 1000, schedules: 1000, deliveries: 20000, seed: 1 });
    },
  });
  const browser = await chromium.launch(chromiumLaunchOptions);
  const host = new URL(server.origin).hostname;
  const cookie = (name, value) => ({ name, value, domain: host, path: "/", httpOnly: false, sameSite: "Lax" });
  const rows = [];
  try {
    for (const path of paths) {
      const signedOut = path === "/" || path === "/welcome";
      const url = `${server.origin}${path.replace(":id", String(account.debtorIds[1]))}`;
      const m = await measurePageJs(browser, url, {
        settleMs,
        cookies: signedOut
          ? [cookie("tz", "Europe/Berlin")]
          : [cookie("dunly_session", account.token), cookie("tz", "Europe/Berlin")],
      });
      console.log(`${formatPage(path, m)}\n`);
      rows.push({ path, ...m });
    }
  } finally {
    await browser.close();
    await stopAll();
  }
  console.log("page                 first load   after hydration   total");
  for (const r of rows) {
    console.log(
      `${r.path.padEnd(20)} ${kb(r.firstGzip).padStart(10)}   ${kb(r.afterGzip).padStart(15)}   ${kb(r.total).padStart(9)}`,
    );
  }
  if (process.env.PAGE_JS_JSON) writeFileSync(process.env.PAGE_JS_JSON, JSON.stringify(rows, null, 2));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch(async (error) => {
    console.error(error);
    await stopAll();
    process.exit(1);
  });
}
