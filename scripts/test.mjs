// `npm test`: every test, in the order that fails fastest. Type check (the commands of
// `npm run typecheck`), build (the integration and end-to-end tests run against the production
// build), bundle sizes (`wrangler deploy --dry-run` of both Workers), unit + integration +
// production-configuration tests (vitest, the latter two inside workerd), then Playwright in
// Debian's Chromium, then Lighthouse's accessibility score on / and /pricing.
import { spawn } from "node:child_process";
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
  // tsc and the build read the same sources and write nothing the other reads: side by side.
  [
    ["Type check", "tsc", ["--noEmit"]],
    ["Build", "react-router", ["build"]],
  ],
  // Both Workers dry-run deployed from the build (app ≤ 600 KiB, mail ≤ 250 KiB gzip) and every
  // page's first-load JavaScript within its budget.
  ["Bundle size", "node", ["scripts/check-bundles.mjs"]],
  ["Unit and integration tests", "vitest", ["run"]],
  ["End-to-end tests", "playwright", ["test"]],
  // Lighthouse's accessibility score of 100 on / and /pricing (`npm run lighthouse` runs all four categories).
  ["Lighthouse accessibility", "node", ["scripts/lighthouse.mjs", "--assert"]],
];

/** Each step's time, printed at the end whether the run passed or failed (docs/decisions/013). */
const timings = new Map();
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const single = steps.flatMap((step) => (Array.isArray(step[0]) ? step : [step]));
function printTimings() {
  const rows = single.map(([title, command, args]) => {
    const t = timings.get(`${title}:${command}`);
    return [title, `${command} ${args.join(" ")}`, t === undefined ? "not run" : `${seconds(t.ms)}${t.ok ? "" : " ✖"}`];
  });
  const wall = Date.now() - startedAll;
  rows.push(["Total (wall clock)", "", seconds(wall)]);
  const width = [0, 1].map((c) => Math.max(...rows.map((r) => r[c].length)));
  console.log("\nStep times:");
  for (const [title, command, time] of rows) {
    console.log(`  ${title.padEnd(width[0])}  ${command.padEnd(width[1])}  ${time.padStart(9)}`);
  }
}

/** Runs one step; resolves with whether it passed, its output going to this terminal. */
function run([title, command, args]) {
  const started = Date.now();
  console.log(`\n▶ ${title}: ${command} ${args.join(" ")}`);
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: "inherit" });
    child.on("close", (status) => {
      const ms = Date.now() - started;
      timings.set(`${title}:${command}`, { ms, ok: status === 0 });
      if (status === 0) console.log(`✔ ${title} (${seconds(ms)})`);
      else console.error(`\n✖ ${title} failed (${command} ${args.join(" ")}).`);
      resolve(status === 0);
    });
  });
}

const startedAll = Date.now();
for (const step of steps) {
  const group = Array.isArray(step[0]) ? step : [step];
  const passed = await Promise.all(group.map(run));
  if (passed.includes(false)) {
    printTimings();
    process.exit(1);
  }
}
printTimings();
console.log("\nAll tests passed.");
