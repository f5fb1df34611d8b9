// Types of scripts/client-js.mjs, for its unit test (tests/support/client-js.test.ts).

export interface RouterManifest {
  entry: { module: string; imports?: string[] };
  routes: Record<
    string,
    { id: string; parentId?: string; path?: string; index?: boolean; module: string; hasDefaultExport?: boolean }
  >;
}

export type ViteManifest = Record<
  string,
  {
    file: string;
    src?: string;
    isEntry?: boolean;
    isDynamicEntry?: boolean;
    imports?: string[];
    dynamicImports?: string[];
  }
>;

export interface Manifests {
  router: RouterManifest;
  vite: ViteManifest;
}

export interface Page {
  path: string;
  url?: string;
  audience: string;
  budget?: number;
  lazy?: string[];
}

export interface PageResult {
  path: string;
  audience: string;
  routeIds: string[];
  /** false: a matched route declares NO_SCRIPTS, the page is sent without module scripts. */
  scripts: boolean;
  files: string[];
  lazyFiles: string[];
  firstLoad: number;
  lazy: number;
  total: number;
  budget: number;
}

export const KB: number;
export const DEFAULT_BUDGET: number;
export const PAGES: Page[];
export const NO_SCRIPTS: RegExp;
export function parseRouterManifest(source: string): RouterManifest;
export function readManifests(clientDir?: string): Manifests;
export function matchRouteIds(router: RouterManifest, url: string): string[];
export function pageFiles(
  manifests: Manifests,
  url: string,
  lazy?: string[],
  readSource?: (path: string) => string,
): { routeIds: string[]; first: string[]; lazy: string[]; scripts: boolean };
export function pagesFor(router: RouterManifest, pages?: Page[]): Page[];
export function clientJs(options?: {
  clientDir?: string;
  pages?: Page[];
  gzipSize?: (file: string) => number;
}): PageResult[];
export function measurePages(
  manifests: Manifests,
  size: (file: string) => number,
  pages?: Page[],
  readSource?: (path: string) => string,
): PageResult[];
export function formatTable(rows: PageResult[]): string;
