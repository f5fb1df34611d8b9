// `npm test`: every test, in the order that fails fastest. Lint and type check (the commands of
// `npm run typecheck`) beside the build (the integration and end-to-end tests run against the production
// build), bundle sizes (`wrangler deploy --dry-run` of both Workers), unit + integration +
// production-configuration tests (vitest, the latter two inside workerd), then Playwright in
// Debian's Chromium, Lighthouse's accessibility score on / and /pricing among them.
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

// Two lanes first, side by side on the 2 cores (each of their commands is mostly one thread): typegen
// and tsc; and lint, both Workers' types, the build with its budgets, then the unit tests.
// Then the tests, which use both cores themselves and need the build. Steps stop at the first failure.
const lanes = [
  [
    ["Type check", "react-router", ["typegen"]],
    ["Type check", "tsc", ["--noEmit"]],
  ],
  // tsc is the longest step of the two lanes: lint and the Workers' own type check go beside it.
  [
    // Lint and format check (Biome, biome.json): no errors, no warnings, nothing left unformatted.
    ["Lint", "biome", ["check", "--error-on-warnings", "."]],
    // The committed worker-configuration.d.ts files must match both wrangler.toml files (`npm run cf-typegen`).
    ["Type check", "npm", ["run", "--silent", "cf-typecheck"]],
    ["Build", "react-router", ["build"]],
    // Both Workers dry-run deployed from the build (app ≤ 1,000 KiB, mail ≤ 520 KiB gzip) and every
    // page's first-load JavaScript within its budget.
    ["Bundle size", "node", ["scripts/check-bundles.mjs"]],
    // The unit tests need no build, but here they use the core the build leaves while tsc runs
    // in the first lane (about 15 s less on the 2-core CI machine than beside the integration tests).
    ["Unit tests", "vitest", ["run", "--project", "unit"]],
  ],
];
const tests = [
  [
    "Integration tests",
    "vitest",
    ["run", "--project", "integration", "--project", "integration-own-db", "--project", "production"],
  ],
  // Playwright, Lighthouse's accessibility score of 100 on / and /pricing among them
  // (tests/e2e/lighthouse.spec.ts; `npm run lighthouse` runs all four categories).
  ["End-to-end tests", "playwright", ["test"]],
];
const steps = [...lanes.flat(), ...tests];

/** Each step's time, printed at the end whether the run passed or failed (docs/decisions/013). */
const timings = new Map();
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
function printTimings(wallMs) {
  const rows = steps.map((step) => {
    const [title, command, args] = step;
    const t = timings.get(step);
    return [title, `${command} ${args.join(" ")}`, t === undefined ? "not run" : `${seconds(t.ms)}${t.ok ? "" : " ✖"}`];
  });
  rows.push(["Total (wall clock; the two lanes overlap)", "", seconds(wallMs)]);
  const width = [0, 1].map((c) => Math.max(...rows.map((r) => r[c].length)));
  console.log("\nStep times:");
  for (const [title, command, time] of rows) {
    console.log(`  ${title.padEnd(width[0])}  ${command.padEnd(width[1])}  ${time.padStart(9)}`);
  }
}

/**
 * Runs one step. Inside a lane its output is kept and printed whole when it ends, so the two lanes'
 * lines never interleave; the tests print as they go.
 */
function run(step, { buffered }) {
  const [title, command, args] = step;
  const started = Date.now();
  if (!buffered) console.log(`\n▶ ${title}: ${command} ${args.join(" ")}`);
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: buffered ? ["ignore", "pipe", "pipe"] : "inherit" });
    const output = [];
    child.stdout?.on("data", (chunk) => output.push(chunk));
    child.stderr?.on("data", (chunk) => output.push(chunk));
    child.on("error", (error) => output.push(Buffer.from(`${error.message}\n`)));
    child.on("close", (code) => {
      const ms = Date.now() - started;
      const ok = code === 0;
      timings.set(step, { ms, ok });
      if (buffered) {
        console.log(`\n▶ ${title}: ${command} ${args.join(" ")}`);
        process.stdout.write(Buffer.concat(output));
      }
      console.log(ok ? `✔ ${title} (${seconds(ms)})` : `\n✖ ${title} failed (${command} ${args.join(" ")}).`);
      resolve(ok);
    });
  });
}

const started = Date.now();
const finish = (ok) => {
  printTimings(Date.now() - started);
  if (!ok) process.exit(1);
  console.log("\nAll tests passed.");
};
const laneResults = await Promise.all(
  lanes.map(async (lane) => {
    for (const step of lane) if (!(await run(step, { buffered: true }))) return false;
    return true;
  }),
);
if (laneResults.includes(false)) finish(false);
for (const step of tests) if (!(await run(step, { buffered: false }))) finish(false);
finish(true);
