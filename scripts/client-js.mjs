// JavaScript a page downloads without any interaction, gzip, read from
// the client build: React Router's manifest (build/client/assets/manifest-*.js) gives the route tree
// and each route's module, Vite's manifest (build/client/.vite/manifest.json, kept by
// vite.config.ts) the chunk graph. A page's first load is the client entry, the root route and
// every route module its URL matches, with all their static imports (transitively), each file
// counted once and gzipped. A chunk a page imports dynamically but fetches without interaction (on
// mount or once idle: the dashboard's chart) counts too: the page names it in `lazy`, and it counts
// with its own static imports, again each file once. What loads on an interaction (a menu, a modal,
// the date picker, a toast) does not count. tests/e2e/lean-client.spec.ts loads the pages in
// Chromium and fails when one fetches, without interaction, a file this does not count for it;
// bench/page-js.mjs prints what each page really downloads.
// A page whose route module declares `export const handle = { hydrate: false }` is sent without
// module scripts (app/root.tsx leaves out <Scripts/>, docs/decisions/026): it counts 0.
//
//   node scripts/client-js.mjs [clientDir]      prints the table (after `react-router build`)
//
// scripts/check-bundles.mjs fails the build when a page is over its budget.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { matchRoutes } from "react-router";

/** A KB of the budgets: 1,000 bytes of gzip. */
export const KB = 1000;
export const DEFAULT_BUDGET = 150 * KB;

/**
 * The pages and their budgets. `path` is the route's pattern (or an address of its own, where one
 * address of a route loads more than the others); `url` an address it matches (a parameter filled in). `lazy` names source modules a page imports dynamically and fetches without
 * any interaction, which count for it (keys of Vite's manifest). A route with a component that no entry here matches is added
 * with DEFAULT_BUDGET (see `pagesFor`).
 */
export const PAGES = [
  // Sent without module scripts (docs/decisions/026): the framework chunk alone is over this budget.
  { path: "/", audience: "public", budget: 100 * KB },
  { path: "/welcome", audience: "public" },
  { path: "/auth/verify", audience: "public" },
  { path: "/sign-in/password", audience: "public" },
  { path: "/404", audience: "public" },
  { path: "/u/:token", url: "/u/token", audience: "public" },
  { path: "/p/:token", url: "/p/token", audience: "public" },
  { path: "/d/:token", url: "/d/token", audience: "public" },
  { path: "/*", url: "/no-such-page", audience: "public" },
  { path: "/pricing", audience: "signed-in", budget: 120 * KB },
  {
    path: "/dashboard",
    audience: "signed-in",
    lazy: ["app/components/dashboard/notifications-chart.tsx"],
  },
  { path: "/schedule", audience: "signed-in" },
  { path: "/debtors-list", audience: "signed-in" },
  { path: "/schedules-list", audience: "signed-in" },
  { path: "/report", audience: "signed-in" },
  // Settings: nine forms in one route module (a lazy tab panel could hydrate a form typed into as
  // empty), the number format's list among them (docs/decisions/050), and the tabs of the settings that
  // are routes of their own (bank, texts, brand, sending domain): 4 KB over the others' budget.
  { path: "/iam/:tab?", url: "/iam/info", audience: "signed-in", budget: 154 * KB },
  // The same route at the tab whose panel is a chunk of its own, fetched with the page when opened at it.
  {
    path: "/iam/subscription",
    audience: "signed-in",
    lazy: ["app/components/settings/subscription-panel.tsx"],
    budget: 154 * KB,
  },
  { path: "/iam/bank", audience: "signed-in" },
  { path: "/iam/templates", audience: "signed-in" },
  { path: "/iam/brand", audience: "signed-in" },
  { path: "/iam/domain", audience: "signed-in" },
  { path: "/iam/accounting", audience: "signed-in" },
  { path: "/iam/charges", audience: "signed-in" },
  { path: "/iam/texts", audience: "signed-in" },
  { path: "/debtors/import", audience: "signed-in" },
  { path: "/debtors/cadence", url: "/debtors/cadence?ids=1", audience: "signed-in" },
  { path: "/debtors/:id", url: "/debtors/1", audience: "signed-in" },
];

/**
 * The declaration app/root.tsx honours (app/ui/should-hydrate.ts), as our sources write it
 * (formatted by biome): a route module with it renders pages without module scripts.
 */
export const NO_SCRIPTS = /^export const handle\b[^=]*=\s*\{\s*hydrate:\s*false\b/m;

/** React Router's client manifest (`window.__reactRouterManifest={...}`), parsed. */
export function parseRouterManifest(source) {
  const json = source.slice(source.indexOf("{"), source.lastIndexOf("}") + 1);
  return JSON.parse(json);
}

/** Both manifests of a client build directory. */
export function readManifests(clientDir = "build/client") {
  const assets = join(clientDir, "assets");
  const names = readdirSync(assets).filter((name) => /^manifest-[\w-]+\.js$/.test(name));
  if (names.length !== 1) {
    throw new Error(
      `Expected one React Router manifest in ${assets}, found ${names.length}; run \`react-router build\`.`,
    );
  }
  let vite;
  try {
    vite = JSON.parse(readFileSync(join(clientDir, ".vite", "manifest.json"), "utf8"));
  } catch (error) {
    throw new Error(
      `Cannot read ${join(clientDir, ".vite", "manifest.json")} (${error.message}); vite.config.ts must keep build.manifest.`,
    );
  }
  return { router: parseRouterManifest(readFileSync(join(assets, names[0]), "utf8")), vite };
}

/** The route tree of React Router's manifest, in the shape matchRoutes takes. */
function routeTree(router) {
  const byParent = new Map();
  for (const route of Object.values(router.routes)) {
    const list = byParent.get(route.parentId) ?? [];
    list.push(route);
    byParent.set(route.parentId, list);
  }
  const build = (parentId) =>
    (byParent.get(parentId) ?? []).map((route) => ({
      id: route.id,
      path: route.path,
      index: route.index,
      children: route.index ? undefined : build(route.id),
    }));
  return build(undefined);
}

/** The route ids a URL path matches, root first (empty when nothing matches). */
export function matchRouteIds(router, url) {
  return (matchRoutes(routeTree(router), url) ?? []).map((match) => match.route.id);
}

/** Vite manifest keys by output file ("assets/x.js"). */
function keysByFile(vite) {
  return new Map(Object.entries(vite).map(([key, chunk]) => [chunk.file, key]));
}

/** Adds a chunk and its static imports, transitively, to `files` (a Set of output files). */
function addWithImports(vite, key, files, seen = new Set()) {
  if (seen.has(key)) return;
  seen.add(key);
  const chunk = vite[key];
  if (!chunk) throw new Error(`Vite's manifest has no chunk ${key}.`);
  if (chunk.file.endsWith(".js")) files.add(chunk.file);
  for (const imported of chunk.imports ?? []) addWithImports(vite, imported, files, seen);
}

/**
 * The JavaScript files a page loads: `first` on its first load (entry, root, the matched route
 * modules and their static imports), `lazy` the extra files of the dynamic imports it names.
 * Each list is deduplicated; `lazy` holds only files not already in `first`. `readSource` gives a
 * route module's source (a path like app/routes/home.tsx): when one of the matched routes declares
 * NO_SCRIPTS the page loads nothing (`scripts: false`).
 */
export function pageFiles({ router, vite }, url, lazy = [], readSource = () => "") {
  const routeIds = matchRouteIds(router, url);
  if (routeIds.length === 0) throw new Error(`No route matches ${url}.`);
  const byFile = keysByFile(vite);
  const keyOf = (module) => {
    const key = byFile.get(module.replace(/^\//, ""));
    if (!key) throw new Error(`Vite's manifest has no chunk for ${module}.`);
    return key;
  };
  const sourceOf = (id) => {
    const key = keyOf(router.routes[id].module);
    return (vite[key].src ?? key).replace(/\?.*$/, "");
  };
  if (routeIds.some((id) => NO_SCRIPTS.test(readSource(sourceOf(id))))) {
    if (lazy.length > 0) throw new Error(`${url} is sent without module scripts: it cannot count lazy modules.`);
    return { routeIds, first: [], lazy: [], scripts: false };
  }
  const first = new Set();
  const seen = new Set();
  addWithImports(vite, keyOf(router.entry.module), first, seen);
  for (const id of routeIds) addWithImports(vite, keyOf(router.routes[id].module), first, seen);
  const reachable = new Set([...seen].flatMap((key) => vite[key].dynamicImports ?? []));
  const extra = new Set();
  for (const source of lazy) {
    if (!reachable.has(source)) {
      throw new Error(`${url} counts the lazy module ${source}, but none of its chunks imports it dynamically.`);
    }
    addWithImports(vite, source, extra, seen);
  }
  return { routeIds, first: [...first], lazy: [...extra].filter((file) => !first.has(file)), scripts: true };
}

/**
 * Every page to measure: PAGES, plus each route with a component (a page, not a resource route)
 * that none of them reaches, with the default budget.
 */
export function pagesFor(router, pages = PAGES) {
  const covered = new Set(pages.map((page) => matchRouteIds(router, page.url ?? page.path).at(-1)));
  const extra = [];
  for (const route of Object.values(router.routes)) {
    if (route.id === "root" || !route.hasDefaultExport || covered.has(route.id)) continue;
    const segments = [];
    for (let r = route; r && r.id !== "root"; r = router.routes[r.parentId]) if (r.path) segments.unshift(r.path);
    const path = `/${segments.join("/")}`;
    const url = path
      .replace(/\/:\w+\?/g, "")
      .replace(/:\w+/g, "1")
      .replace(/\*$/, "no-such-page");
    extra.push({ path, url, audience: "?" });
  }
  return [...pages, ...extra];
}

/** Gzip bytes of each file, read once. */
function gzipSizer(clientDir) {
  const sizes = new Map();
  return (file) => {
    if (!sizes.has(file)) sizes.set(file, gzipSync(readFileSync(join(clientDir, file))).length);
    return sizes.get(file);
  };
}

/**
 * First-load JavaScript of every page of a client build: `firstLoad` and `lazy` in gzip bytes,
 * `total` their sum (what the budget is checked against), `budget` in bytes.
 */
export function clientJs({ clientDir = "build/client", pages = PAGES, gzipSize } = {}) {
  const manifests = readManifests(clientDir);
  const size = gzipSize ?? gzipSizer(clientDir);
  // The route modules' sources, from the checkout the build was made from.
  return measurePages(manifests, size, pages, (path) => readFileSync(path, "utf8"));
}

/**
 * The measurement over given manifests and a file-size function (the unit test's fake build);
 * `readSource` as for pageFiles.
 */
export function measurePages(manifests, size, pages = PAGES, readSource = undefined) {
  return pagesFor(manifests.router, pages).map((page) => {
    const { routeIds, first, lazy, scripts } = pageFiles(manifests, page.url ?? page.path, page.lazy, readSource);
    const sum = (files) => files.reduce((total, file) => total + size(file), 0);
    const firstLoad = sum(first);
    const lazyBytes = sum(lazy);
    return {
      path: page.path,
      audience: page.audience,
      routeIds,
      scripts,
      files: first,
      lazyFiles: lazy,
      firstLoad,
      lazy: lazyBytes,
      total: firstLoad + lazyBytes,
      budget: page.budget ?? DEFAULT_BUDGET,
    };
  });
}

const kb = (bytes) => `${(bytes / KB).toFixed(1)} KB`;

/** The table the CLI and check-bundles print. */
export function formatTable(rows) {
  const header = ["page", "who", "files", "first load", "+ lazy", "total", "budget", ""];
  const lines = rows.map((row) => [
    row.path,
    row.audience,
    row.scripts ? String(row.files.length + row.lazyFiles.length) : "none",
    kb(row.firstLoad),
    row.lazy ? kb(row.lazy) : "",
    kb(row.total),
    kb(row.budget),
    row.total > row.budget ? "✖ over" : "✔",
  ]);
  const widths = header.map((_, i) => Math.max(header[i].length, ...lines.map((line) => line[i].length)));
  const format = (cells) =>
    cells
      .map((cell, i) => (i >= 2 && i <= 6 ? cell.padStart(widths[i]) : cell.padEnd(widths[i])))
      .join("  ")
      .trimEnd();
  return [format(header), ...lines.map(format)].join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows = clientJs({ clientDir: process.argv[2] ?? "build/client" });
  console.log(`JavaScript per page without interaction, gzip (KB = 1,000 bytes):\n\n${formatTable(rows)}`);
}
