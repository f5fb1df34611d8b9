// Bundle budgets (a step of `npm test` and of `npm run deploy`, after the build).
//
// 1. JavaScript per page without interaction, gzip (scripts/client-js.mjs): what the browser must
//    fetch to show and hydrate each page, and the chunks it fetches after hydration without any
//    interaction (the dashboard's chart; tests/e2e/lean-client.spec.ts checks in Chromium that a
//    page fetches nothing else). Budgets in KB = 1,000 bytes: / 100 KB
//    (0 when it sends no module scripts), /pricing 120 KB, every other page, /dashboard and /schedule included, 150 KB (PAGES in
//    scripts/client-js.mjs).
// 2. Both Workers: `wrangler deploy --dry-run` (offline: nothing is uploaded), then every file of each
//    bundle gzipped and summed. Budgets in KiB = 1,024 bytes: app Worker 1,000 KiB, mail Worker 520 KiB
//    (Cloudflare refuses a Worker above its plan's limit; these keep us far below it).
//
// Every budget is checked and printed; the script fails (exit 1) when any is exceeded.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { clientJs, formatTable } from "./client-js.mjs";

const KIB = 1024;
/** Worker upload budgets, gzip. */
// 600 KiB until the Stripe SDK (decisions/017) and postal-mime (decisions/020) came in; both are server-only.
// 650 until autopilot (decisions/049: the cadence planner, the account's cadence, the outlook) took
// it to 655; 700 until the user's own voice (decisions/055: message catalogues in five languages,
// contacts, brand and sending domains) took it to the limit; 800 until the Xero sync and its local
// stand-in (decisions/060) took it to 802; 820 until QuickBooks Online, both tools' webhooks and
// writing payments back (decisions/061–063; each tool's stand-in ships with it, answering only in
// development and test) took it to 843; 860 until late-payment charges (decisions/064–067: the rules,
// their words and the settings in five languages) and payment plans (decisions/066: the portal's plan
// forms and pages in five languages) took it to 905; 920 until text messages (decisions/068–070:
// libphonenumber-js and its mobile metadata, about 50 KiB, to refuse a landline on the server; the
// Twilio client and its stand-in) took it to about 970. 1,000 is still a third of 3 MB.
const APP_WORKER_BUDGET = 1000 * KIB;
// 250 KiB until the statement PDF (decisions/053): pdf-lib and its font metrics are about 245 KiB,
// carried by the mail Worker (loaded on the first statement only) so the app Worker has none.
// 420 until the reminder's words came in five languages (decisions/055).
const MAIL_WORKER_BUDGET = 520 * KIB;
const OUT = ".wrangler/bundle-check";

const workers = [
  {
    name: "mail Worker (dunly-mail)",
    config: "dist/dunly_mail/wrangler.json",
    outdir: `${OUT}/mail`,
    budget: MAIL_WORKER_BUDGET,
  },
  { name: "app Worker (dunly)", config: "build/server/wrangler.json", outdir: `${OUT}/app`, budget: APP_WORKER_BUDGET },
];

process.env.WRANGLER_SEND_METRICS = "false";
process.env.CLOUDFLARE_CF_FETCH_ENABLED = "false";

/** Every file wrangler wrote for upload (the modules), not its README or source maps. */
function bundleFiles(dir) {
  return readdirSync(dir, { recursive: true })
    .map((name) => join(dir, String(name)))
    .filter((path) => statSync(path).isFile() && !path.endsWith(".map") && !path.endsWith("README.md"));
}

const kib = (bytes) => `${(bytes / KIB).toFixed(1)} KiB`;
const failures = [];

// 1. The browser's JavaScript.
const pages = clientJs({ clientDir: "build/client" });
console.log(`JavaScript per page without interaction, gzip (KB = 1,000 bytes):\n\n${formatTable(pages)}\n`);
for (const page of pages.filter((p) => p.total > p.budget)) {
  failures.push(
    `${page.path}: ${(page.total / 1000).toFixed(1)} KB of JavaScript without interaction (gzip${page.lazy ? ", with the chunks it fetches after hydration" : ""}), over its budget of ${(page.budget / 1000).toFixed(0)} KB. ` +
      "Load what the page does not need to show itself when it is used; `node scripts/client-js.mjs` lists the pages.",
  );
}

// Vite's manifest, which that measurement reads, is a build record: it must not be uploaded with
// the static assets (vite.config.ts writes the .assetsignore that keeps it out).
let assetsIgnore = "";
try {
  assetsIgnore = readFileSync("build/client/.assetsignore", "utf8");
} catch {}
if (!/^\.vite\/?$/m.test(assetsIgnore)) {
  failures.push("build/client/.assetsignore does not list .vite: Vite's manifest would be served as a static asset.");
}

// 2. The Workers.
for (const worker of workers) {
  rmSync(worker.outdir, { recursive: true, force: true });
  const dryRun = spawnSync("wrangler", ["deploy", "--dry-run", "--outdir", worker.outdir, "-c", worker.config], {
    encoding: "utf8",
  });
  if (dryRun.error) {
    console.error(
      `✖ Could not run wrangler (${dryRun.error.message}); run this through npm (npm test, npm run deploy).`,
    );
    process.exit(1);
  }
  if (dryRun.status !== 0) {
    console.error(`${dryRun.stdout}${dryRun.stderr}\n✖ wrangler deploy --dry-run failed for the ${worker.name}.`);
    process.exit(dryRun.status ?? 1);
  }
  let raw = 0;
  let gzip = 0;
  const files = bundleFiles(worker.outdir);
  for (const file of files) {
    const bytes = readFileSync(file);
    raw += bytes.length;
    gzip += gzipSync(bytes).length;
  }
  const over = gzip > worker.budget;
  if (over) {
    failures.push(
      `${worker.name}: ${kib(gzip)} gzip, over its budget of ${kib(worker.budget)}; see which modules grew in the dry-run output under ${worker.outdir}.`,
    );
  }
  console.log(
    `${over ? "✖" : "✔"} ${worker.name}: ${files.length} files, ${kib(raw)}, ${kib(gzip)} gzip (budget ${kib(worker.budget)})`,
  );
}

if (failures.length > 0) {
  console.error(`\n✖ Over budget:\n${failures.map((f) => `  - ${f}`).join("\n")}`);
  process.exit(1);
}
console.log("\n✔ Every page and both Workers are within their budgets.");
