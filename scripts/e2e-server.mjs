// Serves the production build with wrangler dev for Playwright: a fresh local D1 (migrations
// applied), the mail Worker beside the app, APP_ENV=test so the dev mailbox is on.
import { spawn, spawnSync } from "node:child_process";
import { rmSync } from "node:fs";

const port = process.env.E2E_PORT ?? "8788";
const persist = ".wrangler/e2e-state";
rmSync(persist, { recursive: true, force: true });

const migrate = spawnSync(
  "wrangler",
  ["d1", "migrations", "apply", "DB", "--local", "--persist-to", persist, "-c", "build/server/wrangler.json"],
  { stdio: "inherit" },
);
if (migrate.status !== 0) process.exit(migrate.status ?? 1);

const server = spawn(
  "wrangler",
  [
    "dev",
    "-c",
    "build/server/wrangler.json",
    "-c",
    "dist/dunly_mail/wrangler.json",
    "--persist-to",
    persist,
    "--port",
    port,
    "--ip",
    "127.0.0.1",
    "--var",
    "APP_ENV:test",
    // Every journey signs in a new user from 127.0.0.1; the per-address limit still applies.
    "--var",
    "SIGNIN_LIMIT_PER_CLIENT:1000",
    "--show-interactive-dev-session=false",
  ],
  { stdio: "inherit" },
);
const stop = () => server.kill("SIGTERM");
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
server.on("exit", (code) => process.exit(code ?? 0));
