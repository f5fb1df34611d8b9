import { describe, expect, it } from "vitest";
import {
  DEFAULT_BUDGET,
  formatTable,
  type Manifests,
  matchRouteIds,
  measurePages,
  NO_SCRIPTS,
  type Page,
  pageFiles,
  pagesFor,
  parseRouterManifest,
} from "../../scripts/client-js.mjs";

/**
 * The first-load computation of scripts/client-js.mjs (the budgets of scripts/check-bundles.mjs)
 * on a small fake build: React Router's manifest for the routes, Vite's for the chunk graph.
 */
const Q = "?__react-router-build-client-route";
const manifests: Manifests = {
  router: {
    entry: { module: "/assets/entry.js", imports: ["/assets/framework.js"] },
    routes: {
      root: { id: "root", path: "", module: "/assets/root.js", hasDefaultExport: true },
      "routes/home": {
        id: "routes/home",
        parentId: "root",
        index: true,
        module: "/assets/home.js",
        hasDefaultExport: true,
      },
      "routes/dashboard": {
        id: "routes/dashboard",
        parentId: "root",
        path: "dashboard",
        module: "/assets/dashboard.js",
        hasDefaultExport: true,
      },
      "routes/debtor": {
        id: "routes/debtor",
        parentId: "root",
        path: "debtors/:id",
        module: "/assets/debtor.js",
        hasDefaultExport: true,
      },
      // A resource route: no component, no page.
      "routes/export": {
        id: "routes/export",
        parentId: "root",
        path: "debtors.csv",
        module: "/assets/export.js",
        hasDefaultExport: false,
      },
    },
  },
  vite: {
    "entry.client.tsx": { file: "assets/entry.js", isEntry: true, imports: ["_framework.js"] },
    "_framework.js": { file: "assets/framework.js" },
    [`app/root.tsx${Q}`]: { file: "assets/root.js", isEntry: true, imports: ["_framework.js", "_shell.js"] },
    "_shell.js": { file: "assets/shell.js", imports: ["_framework.js", "_shell.css"] },
    "_shell.css": { file: "assets/shell.css" },
    [`app/routes/home.tsx${Q}`]: { file: "assets/home.js", isEntry: true, imports: ["_framework.js", "_shared.js"] },
    "_shared.js": { file: "assets/shared.js", imports: ["_framework.js"] },
    [`app/routes/dashboard.tsx${Q}`]: {
      file: "assets/dashboard.js",
      isEntry: true,
      imports: ["_shared.js"],
      dynamicImports: ["app/chart.tsx"],
    },
    "app/chart.tsx": { file: "assets/chart.js", isDynamicEntry: true, imports: ["_shared.js", "_chart-lib.js"] },
    "_chart-lib.js": { file: "assets/chart-lib.js" },
    [`app/routes/debtor.tsx${Q}`]: { file: "assets/debtor.js", isEntry: true, imports: ["_framework.js"] },
    [`app/routes/export.ts${Q}`]: { file: "assets/export.js", isEntry: true },
  },
};

const sizes: Record<string, number> = {
  "assets/entry.js": 1,
  "assets/framework.js": 100_000,
  "assets/root.js": 2,
  "assets/shell.js": 5_000,
  "assets/shell.css": 9_999_999,
  "assets/home.js": 3_000,
  "assets/shared.js": 10_000,
  "assets/dashboard.js": 4_000,
  "assets/chart.js": 20_000,
  "assets/chart-lib.js": 30_000,
  "assets/debtor.js": 6_000,
};
const size = (file: string) => {
  const bytes = sizes[file];
  if (bytes === undefined) throw new Error(`no size for ${file}`);
  return bytes;
};

const shellFiles = ["assets/entry.js", "assets/framework.js", "assets/root.js", "assets/shell.js"];

describe("first-load JavaScript of a page", () => {
  it("matches a URL to its route chain, root first", () => {
    expect(matchRouteIds(manifests.router, "/")).toEqual(["root", "routes/home"]);
    expect(matchRouteIds(manifests.router, "/debtors/7")).toEqual(["root", "routes/debtor"]);
    expect(matchRouteIds(manifests.router, "/nothing-here")).toEqual([]);
  });

  it("is the entry, the root and the page's route with their static imports, each file once, no CSS", () => {
    const { first, lazy } = pageFiles(manifests, "/");
    expect([...first].sort()).toEqual([...shellFiles, "assets/home.js", "assets/shared.js"].sort());
    expect(new Set(first).size).toBe(first.length);
    expect(lazy).toEqual([]);
  });

  it("counts a chunk that several modules import once", () => {
    // framework.js is imported by the entry, the root, the shell and the page; shared.js by the page.
    const [home] = measurePages(manifests, size, [{ path: "/", audience: "public" }]);
    expect(home.firstLoad).toBe(1 + 100_000 + 2 + 5_000 + 3_000 + 10_000);
    expect(home.total).toBe(home.firstLoad);
  });

  it("leaves dynamic imports out unless the page names them; a named one counts its own chunks once", () => {
    const plain = pageFiles(manifests, "/dashboard");
    expect(plain.first).not.toContain("assets/chart.js");
    const [dashboard] = measurePages(manifests, size, [
      { path: "/dashboard", audience: "signed-in", budget: 200_000, lazy: ["app/chart.tsx"] },
    ]);
    // shared.js is in the first load already: the chart adds only its own chunk and its library.
    expect(dashboard.lazyFiles.sort()).toEqual(["assets/chart-lib.js", "assets/chart.js"]);
    expect(dashboard.lazy).toBe(20_000 + 30_000);
    expect(dashboard.firstLoad).toBe(1 + 100_000 + 2 + 5_000 + 4_000 + 10_000);
    expect(dashboard.total).toBe(dashboard.firstLoad + dashboard.lazy);
  });

  it("refuses a lazy module the page does not import dynamically (a renamed chart would not be counted)", () => {
    expect(() => pageFiles(manifests, "/", ["app/chart.tsx"])).toThrow(/none of its chunks imports it dynamically/);
  });

  it("measures every page: a page route left out of the list gets the default budget, resource routes none", () => {
    const pages: Page[] = [{ path: "/", audience: "public", budget: 120_000 }];
    const all = pagesFor(manifests.router, pages);
    expect(all.map((p) => p.path)).toEqual(["/", "/dashboard", "/debtors/:id"]);
    const rows = measurePages(manifests, size, pages);
    expect(rows.find((r) => r.path === "/debtors/:id")).toMatchObject({
      routeIds: ["root", "routes/debtor"],
      budget: DEFAULT_BUDGET,
    });
  });

  it("counts nothing for a page whose route module declares it is sent without module scripts", () => {
    const sources: Record<string, string> = {
      "app/root.tsx": "export default function App() {}",
      "app/routes/home.tsx": 'import x from "y";\n\nexport const handle = { hydrate: false } satisfies PageHandle;\n',
      "app/routes/dashboard.tsx":
        "export const handle = { breadcrumb: 'Dashboard' };\n// hydrate: false is not said here",
      "app/routes/debtor.tsx": "export default function Debtor() {}",
    };
    const readSource = (path: string) => {
      const source = sources[path];
      if (source === undefined) throw new Error(`no source ${path}`);
      return source;
    };
    expect(pageFiles(manifests, "/", [], readSource)).toEqual({
      routeIds: ["root", "routes/home"],
      first: [],
      lazy: [],
      scripts: false,
    });
    const [home, dashboard] = measurePages(
      manifests,
      size,
      [
        { path: "/", audience: "public", budget: 100_000 },
        { path: "/dashboard", audience: "signed-in", budget: 200_000 },
      ],
      readSource,
    );
    expect(home).toMatchObject({ scripts: false, firstLoad: 0, total: 0 });
    expect(dashboard).toMatchObject({ scripts: true, firstLoad: 1 + 100_000 + 2 + 5_000 + 4_000 + 10_000 });
    expect(formatTable([home!])).toMatch(/^\/\s+public\s+none\s+0\.0 KB.*✔$/m);
    // A page without scripts has nothing to load lazily.
    expect(() => pageFiles(manifests, "/", ["app/chart.tsx"], readSource)).toThrow(/without module scripts/);
    expect(NO_SCRIPTS.test("export const handle = { hydrate: true };")).toBe(false);
  });

  it("reads React Router's manifest file and marks pages over budget in the table", () => {
    const source = `window.__reactRouterManifest=${JSON.stringify(manifests.router)};`;
    expect(parseRouterManifest(source)).toEqual(manifests.router);
    const table = formatTable(measurePages(manifests, size, [{ path: "/", audience: "public", budget: 100_000 }]));
    expect(table).toMatch(/^\/\s+public.*✖ over$/m);
    expect(table).toMatch(/^\/dashboard\s.*✔$/m);
  });
});
