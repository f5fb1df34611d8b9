// Serves the production build with wrangler dev for Playwright: a fresh local D1 (migrations
// applied), the mail Worker beside the app, APP_ENV=test so the dev mailbox and dev outbox are on.
// The built wrangler.json files are the production configuration; the test values go in a
// .dev.vars beside each (wrangler dev's local override; `--var` reaches only the first Worker).
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";

const port = process.env.E2E_PORT ?? "8788";
const persist = ".wrangler/e2e-state";
rmSync(persist, { recursive: true, force: true });

/** Writes a .dev.vars file (replacing any the build copied from a local .dev.vars). */
function writeDevVars(dir, vars) {
  const lines = Object.entries(vars).map(([key, value]) => `${key}=${JSON.stringify(value)}`);
  writeFileSync(`${dir}/.dev.vars`, `${lines.join("\n")}\n`);
}

writeDevVars("build/server", {
  APP_ENV: "test",
  // Where Playwright opens the app: sign-in links and the opt-out links in reminders point here.
  APP_ORIGIN: `http://localhost:${port}`,
  IMAGE_URL_SECRET: randomBytes(32).toString("hex"),
  OPT_OUT_SECRET: randomBytes(32).toString("hex"),
  ACCOUNTING_TOKEN_KEY: randomBytes(32).toString("base64"),
  // Reminders carry reply addresses; tests/e2e/replies.spec.ts posts replies to /dev/inbound.
  INBOUND_DOMAIN: "inbound.localhost",
  // Every journey signs in a new user from 127.0.0.1; the per-address limit still applies.
  SIGNIN_LIMIT_PER_CLIENT: "1000",
});
writeDevVars("dist/dunly_mail", { APP_ENV: "test", RESEND_API_KEY: "" });

// Every migration in one `wrangler d1 execute` (one local D1 started once), with the rows
// `wrangler d1 migrations apply` would leave in its d1_migrations table. `migrations apply` starts the
// local D1 again for each migration: 11 s for 28 of them on the 2-core CI machine, against about 1.5 s.
const names = readdirSync("migrations")
  .filter((name) => /^\d{4}_.*\.sql$/.test(name))
  .sort();
const combined = ".wrangler/e2e-migrations.sql";
mkdirSync(".wrangler", { recursive: true });
writeFileSync(
  combined,
  [
    ...names.map((name) => readFileSync(`migrations/${name}`, "utf8")),
    `CREATE TABLE IF NOT EXISTS d1_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE,
       applied_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP);`,
    `INSERT INTO d1_migrations (name) VALUES ${names.map((name) => `('${name}')`).join(", ")};`,
  ].join("\n;\n"),
);
const migrate = spawnSync(
  "wrangler",
  ["d1", "execute", "DB", "--local", "--persist-to", persist, "-c", "build/server/wrangler.json", "--file", combined],
  { stdio: ["ignore", "ignore", "inherit"] },
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
    "--show-interactive-dev-session=false",
  ],
  { stdio: "inherit" },
);
const stop = () => server.kill("SIGTERM");
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
server.on("exit", (code) => process.exit(code ?? 0));
