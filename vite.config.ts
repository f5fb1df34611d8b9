import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { cloudflare } from "@cloudflare/vite-plugin";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";
import { textChunks } from "./scripts/react-dom-text-chunks.ts";

/**
 * The client build keeps Vite's manifest (build/client/.vite/manifest.json): scripts/client-js.mjs
 * reads the chunk graph from it (first-load JavaScript per page, budgets in scripts/check-bundles.mjs).
 * It is a build record, not an asset: `.assetsignore` keeps it out of the uploaded static assets.
 */
function keepManifestPrivate(): Plugin {
  return {
    name: "dunly:assetsignore",
    applyToEnvironment: (environment) => environment.name === "client",
    generateBundle() {
      this.emitFile({ type: "asset", fileName: ".assetsignore", source: ".vite\n" });
    },
  };
}

interface ModuleGraph {
  getModuleInfo(id: string): { isEntry: boolean; importers: string[] } | null;
}

const FRAMEWORK = /\/node_modules\/(react|react-dom|scheduler|react-router)\//;
const isShellRoot = (id: string) =>
  /\/app\/root\.tsx\?__react-router-build-client-route$/.test(id) || /\/entry\.client\.[jt]sx?$/.test(id);

/**
 * Every page loads the client entry and the root route with all they import statically (the
 * header, the toaster's stub, React, React Router). Left to itself the bundler splits that into a
 * dozen small chunks, because route modules share pieces of it; one gzipped file compresses better
 * than many and costs one request. So the client build puts React and React Router in one chunk
 * (`framework`, which changes only when they are upgraded) and the rest of that static graph in
 * another (`shell`). What only some pages import, and what is imported dynamically, is untouched.
 * The shell's modules import a library's own module, not an index re-exporting all of it
 * (`lucide-react/icons/menu`, not `lucide-react`): the group takes every import of what it
 * captures, so through an index it would pull in what other pages use of the library.
 * docs/architecture.md §11.
 */
function shellChunks() {
  const inShell = new Map<string, boolean>();
  // Is `id` statically imported, directly or not, by the client entry or the root route? (A walk up its importers.)
  const reachable = (id: string, graph: ModuleGraph): boolean => {
    let result = inShell.get(id);
    if (result !== undefined) return result;
    result = false;
    const seen = new Set([id]);
    const queue = [id];
    while (queue.length > 0 && !result) {
      const current = queue.shift() as string;
      if (isShellRoot(current) || inShell.get(current)) result = true;
      for (const importer of graph.getModuleInfo(current)?.importers ?? []) {
        if (!seen.has(importer)) seen.add(importer) && queue.push(importer);
      }
    }
    inShell.set(id, result);
    return result;
  };
  return {
    groups: [
      { name: "framework", test: FRAMEWORK, priority: 2 },
      {
        name: (id: string, graph: ModuleGraph) => (!isShellRoot(id) && reachable(id, graph) ? "shell" : null),
        priority: 1,
      },
    ],
  };
}

/**
 * The app Worker's build takes `renderToReadableStream` (app/entry.server.tsx) from React's Node
 * stream renderer alone (workerd runs it under `nodejs_compat`: it imports node:util, node:crypto,
 * node:async_hooks and node:stream). Two reasons, both measured (docs/architecture.md §11):
 * - Speed. The edge renderer encodes every attribute and text piece into its own Uint8Array while it
 *   renders (a TextEncoder call and an allocation each); the Node one keeps them strings and encodes
 *   them into 4 KB buffers as it flushes. Rendering was the largest cost of a page: with the Node
 *   renderer the dashboard serves about a third more requests per second on the same machine.
 * - Size. The package's `react-dom/server` (server.edge.js under workerd, server.node.js under Node)
 *   also loads React's legacy string renderer (renderToString, renderToStaticMarkup: ~40 KiB gzip of
 *   the Worker) that nothing on the server calls.
 * Build only: `npm run dev` keeps the package's entry. The mail Worker needs neither: it renders
 * with react-dom/static.edge (emails/render-email.ts).
 */
function nodeStreamReactDomServer(): Plugin {
  const id = "\0dunly:react-dom-server-node";
  const cjs = join(dirname(createRequire(import.meta.url).resolve("react-dom/package.json")), "cjs");
  const production = join(cjs, "react-dom-server.node.production.js");
  let patched = false;
  return {
    name: "dunly:react-dom-server-node",
    apply: "build",
    enforce: "pre",
    applyToEnvironment: (environment) => environment.name === "ssr",
    resolveId: (source) => (source === "react-dom/server" ? id : undefined),
    load(loaded) {
      if (loaded !== id) return undefined;
      const build = this.environment.config.isProduction ? "production" : "development";
      const node = JSON.stringify(join(cjs, `react-dom-server.node.${build}.js`));
      return `import node from ${node};\nexport const { renderToReadableStream, resume, version } = node;\n`;
    },
    transform(code, file) {
      if (file.split("?")[0] !== production) return undefined;
      patched = true;
      return textChunks(code);
    },
    buildEnd(error) {
      // The production renderer must have gone through textChunks (a path that no longer matches
      // would leave it unpatched without a word).
      if (!error && this.environment.config.isProduction && !patched) {
        throw new Error(`dunly:react-dom-server-node: ${production} was not in the build`);
      }
    },
  };
}

export default defineConfig({
  plugins: [
    cloudflare({
      viteEnvironment: { name: "ssr" },
      auxiliaryWorkers: [{ configPath: "./workers/mail/wrangler.toml" }],
    }),
    tailwindcss(),
    reactRouter(),
    keepManifestPrivate(),
    nodeStreamReactDomServer(),
  ],
  build: { manifest: true },
  environments: {
    client: {
      build: {
        rolldownOptions: {
          // React Router's own file names (used when no output options are given) and our chunking.
          output: { entryFileNames: "assets/[name]-[hash].js", codeSplitting: shellChunks() },
        },
      },
    },
  },
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
});
