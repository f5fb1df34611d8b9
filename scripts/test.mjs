// `npm test`: every test, in the order that fails fastest. Type check (the commands of
// `npm run typecheck`), build (the integration and end-to-end tests run against the production
// build), bundle sizes (`wrangler deploy --dry-run` of both Workers), unit + integration +
// production-configuration tests (vitest, the latter two inside workerd), then Playwright in
// Debian's Chromium, Lighthouse's accessibility score on / and /pricing among them.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

process.env.WRANGLER_SEND_METRICS = "false";
process.env.CLOUDFLARE_CF_FETCH_ENABLED = "false";

const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (!existsSync(chromium)) {
  console.error(`\nChromium was not found at ${chromium}. The end-to-end tests use Debian's Chromium, never a downloaded browser.
Install it with:

    sudo apt-get update && sudo apt-get install -y chromium

or point CHROMIUM_PATH at an existing Chromium binary, then run npm test again.\n`);
  process.exit(1);
}

const steps = [
  // The committed worker-configuration.d.ts files must match both wrangler.toml files (`npm run cf-typegen`).
  // Lint and format check (Biome, biome.json): no errors, no warnings, nothing left unformatted.
  ["Lint", "biome", ["check", "--error-on-warnings", "."]],
  ["Type check", "npm", ["run", "--silent", "cf-typecheck"]],
  ["Type check", "react-router", ["typegen"]],
  ["Type check", "tsc", ["--noEmit"]],
  ["Build", "react-router", ["build"]],
  // Both Workers dry-run deployed from the build (app ≤ 600 KiB, mail ≤ 250 KiB gzip) and every
  // page's first-load JavaScript within its budget.
  ["Bundle size", "node", ["scripts/check-bundles.mjs"]],
  ["Unit and integration tests", "vitest", ["run"]],
  // Playwright, Lighthouse's accessibility score of 100 on / and /pricing among them
  // (tests/e2e/lighthouse.spec.ts; `npm run lighthouse` runs all four categories).
  ["End-to-end tests", "playwright", ["test"]],
];

/** Each step's time, printed at the end whether the run passed or failed (docs/decisions/013). */
const timings = [];
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
function printTimings() {
  const rows = steps.map(([title, command, args], i) => {
    const t = timings[i];
    return [title, `${command} ${args.join(" ")}`, t === undefined ? "not run" : `${seconds(t.ms)}${t.ok ? "" : " ✖"}`];
  });
  const total = timings.reduce((sum, t) => sum + t.ms, 0);
  rows.push(["Total", "", seconds(total)]);
  const width = [0, 1].map((c) => Math.max(...rows.map((r) => r[c].length)));
  console.log("\nStep times:");
  for (const [title, command, time] of rows) {
    console.log(`  ${title.padEnd(width[0])}  ${command.padEnd(width[1])}  ${time.padStart(9)}`);
  }
}

for (const [title, command, args] of steps) {
  const started = Date.now();
  console.log(`\n▶ ${title}: ${command} ${args.join(" ")}`);
  const result = spawnSync(command, args, { stdio: "inherit" });
  const ms = Date.now() - started;
  timings.push({ ms, ok: result.status === 0 });
  if (result.status !== 0) {
    console.error(`\n✖ ${title} failed (${command} ${args.join(" ")}).`);
    printTimings();
    process.exit(result.status ?? 1);
  }
  console.log(`✔ ${title} (${seconds(ms)})`);
}
printTimings();
console.log("\nAll tests passed.");
