import { execFileSync } from "node:child_process";
import { defineConfig, devices } from "@playwright/test";
import { chromiumLaunchOptions } from "./scripts/chromium.mjs";
import { daytimeZone } from "./tests/support/daytime-zone";

/**
 * The server's port: E2E_PORT, else a port the system says is free now. Other checkouts on the
 * same machine run their own suites at the same time, so a fixed port could reach their server.
 * The runner chooses it once, before its workers start; they inherit it with the environment.
 */
function serverPort() {
  process.env.E2E_PORT ||= execFileSync(
    process.execPath,
    [
      "-e",
      "const s = require('node:net').createServer().listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); })",
    ],
    { encoding: "utf8" },
  ).trim();
  return process.env.E2E_PORT;
}

const PORT = serverPort();
export const BASE_URL = `http://localhost:${PORT}`;

/** End-to-end tests in Debian's Chromium (never a downloaded browser) against the production build. */
export default defineConfig({
  testDir: "./tests/e2e",
  // Every test signs in its own new user (or its worker's shared one, tests/e2e/fixtures.ts), so
  // tests share nothing but the server: any test beside any other. Three workers on the 2-core CI
  // machine: the browser and the server wait on each other often enough that a third keeps the CPU
  // busy (four saturate it and are slower; docs/decisions/013). E2E_WORKERS overrides the count.
  fullyParallel: true,
  workers: Number(process.env.E2E_WORKERS || 3),
  retries: 0,
  // A test.only left in a commit would drop every other test from CI.
  forbidOnly: Boolean(process.env.CI),
  timeout: 30_000,
  reporter: [["list"]],
  use: {
    baseURL: BASE_URL,
    // The browser's zone becomes a new debtor's: one where it is midday now, so reminders go out at
    // once under the contact rules (08:00-21:00 in the debtor's zone) at whatever hour CI runs.
    timezoneId: daytimeZone(),
    // A failed test keeps its trace (every action with the page's DOM) and a screenshot. The trace
    // leaves out its screencast: recording it cost about a quarter of the suite's CPU time. In CI
    // (CI set, as .ci/run does) no trace is recorded at all: nobody opens a CI machine's traces, and
    // the DOM snapshots of every action cost about a tenth of the suite's time there (decisions/044);
    // the failure's screenshot and the error stay. E2E_TRACE=on records them in CI too.
    trace: process.env.CI && process.env.E2E_TRACE !== "on" ? "off" : { mode: "retain-on-failure", screenshots: false },
    screenshot: "only-on-failure",
    launchOptions: chromiumLaunchOptions,
  },
  // The phone project first: its few tests include the two longest (the accessibility sweep), so
  // they start at once and the many short desktop tests fill the workers until the end.
  projects: [
    { name: "phone", use: { ...devices["Pixel 7"], channel: undefined, timezoneId: daytimeZone() }, grep: /@phone/ },
    { name: "desktop", use: { ...devices["Desktop Chrome"], channel: undefined, timezoneId: daytimeZone() } },
  ],
  webServer: {
    command: `E2E_PORT=${PORT} node scripts/e2e-server.mjs`,
    url: `${BASE_URL}/welcome`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: "ignore",
    stderr: "pipe",
  },
});
