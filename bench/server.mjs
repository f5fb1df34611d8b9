// The production build served by `wrangler dev` for the benchmark, like scripts/e2e-server.mjs: a
// fresh local persist dir with the D1 migrations applied, the mail Worker beside the app, test
// values in a .dev.vars beside each built wrangler.json, and --test-scheduled. The cron is triggered
// with Miniflare's GET /cdn-cgi/handler/scheduled (wrangler's /__scheduled answers 404 for the
// built, unbundled Workers: see bench/engine.mjs). It serves a private copy of the build (bench/run.mjs makes it
// under .wrangler/bench-build), so a concurrent rebuild or end-to-end run does not change what is
// measured and the benchmark's .dev.vars never reach anyone else's server.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

process.env.WRANGLER_SEND_METRICS = "false";
process.env.CLOUDFLARE_CF_FETCH_ENABLED = "false";

/** Where the copy of the build lives: build/server, build/client, dist/dunly_mail and migrations/. */
export const BUILD_COPY = process.env.BENCH_BUILD_COPY ?? ".wrangler/bench-build";
export const APP_CONFIG = `${BUILD_COPY}/build/server/wrangler.json`;
export const MAIL_CONFIG = `${BUILD_COPY}/dist/dunly_mail/wrangler.json`;

/** Copies the current build (and the migrations its wrangler.json points at, ../../migrations). */
export function snapshotBuild() {
  for (const dir of ["build/server", "build/client", "dist/dunly_mail"]) {
    if (!existsSync(dir)) throw new Error(`${dir} is missing: run react-router build first`);
  }
  rmSync(BUILD_COPY, { recursive: true, force: true });
  mkdirSync(BUILD_COPY, { recursive: true });
  for (const dir of ["build", "dist", "migrations"]) cpSync(dir, join(BUILD_COPY, dir), { recursive: true });
  for (const dir of [`${BUILD_COPY}/build/server`, `${BUILD_COPY}/dist/dunly_mail`]) {
    rmSync(`${dir}/.dev.vars`, { force: true });
  }
}

/**
 * Says so when the copy being served is not the current build (the client manifests differ): a
 * bench run without BENCH_SNAPSHOT=1 after a rebuild would otherwise measure the old code. A
 * before/after comparison with BENCH_BUILD_COPY does this on purpose, so it is a warning.
 */
function warnIfStale(log) {
  const manifest = "build/client/.vite/manifest.json";
  const copy = join(BUILD_COPY, manifest);
  if (!existsSync(manifest) || !existsSync(copy)) return;
  if (readFileSync(manifest, "utf8") !== readFileSync(copy, "utf8")) {
    log(`[bench] note: ${BUILD_COPY} is a copy of an older build than build/ (BENCH_SNAPSHOT=1 takes a new one)`);
  }
}

/** Writes a .dev.vars file (wrangler dev's local override of the committed production vars). */
function writeDevVars(dir, vars) {
  const lines = Object.entries(vars).map(([key, value]) => `${key}=${JSON.stringify(String(value))}`);
  writeFileSync(`${dir}/.dev.vars`, `${lines.join("\n")}\n`);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts wrangler dev on a fresh persist dir. `appVars` and `mailVars` are laid over the test values.
 * `beforeStart(sqlitePath)` runs after the migrations and before the server (seeding straight
 * into the D1 file while nothing else has it open). Returns { origin, persist, sqlitePath, stop,
 * restart(beforeStart) }.
 */
export async function startServer({ port, persist, appVars = {}, mailVars = {}, beforeStart, log = console.log }) {
  warnIfStale(log);
  rmSync(persist, { recursive: true, force: true });
  const origin = `http://127.0.0.1:${port}`;
  writeDevVars(`${BUILD_COPY}/build/server`, {
    APP_ENV: "test",
    APP_ORIGIN: origin,
    IMAGE_URL_SECRET: randomBytes(32).toString("hex"),
    OPT_OUT_SECRET: randomBytes(32).toString("hex"),
    SIGNIN_LIMIT_PER_CLIENT: "1000",
    ...appVars,
  });
  writeDevVars(`${BUILD_COPY}/dist/dunly_mail`, { APP_ENV: "test", RESEND_API_KEY: "", ...mailVars });

  const migrate = spawnSync(
    "wrangler",
    ["d1", "migrations", "apply", "DB", "--local", "--persist-to", persist, "-c", APP_CONFIG],
    { encoding: "utf8" },
  );
  if (migrate.error)
    throw new Error(`Could not run wrangler (${migrate.error.message}); run this through npm run bench.`);
  if (migrate.status !== 0) {
    throw new Error(`wrangler d1 migrations apply failed:\n${migrate.stdout}\n${migrate.stderr}`);
  }
  const sqlitePath = findD1File(persist);
  if (beforeStart) await beforeStart(sqlitePath);

  let child = null;
  const logFile = `${persist}.log`;
  const launch = async () => {
    const { openSync } = await import("node:fs");
    const out = openSync(logFile, "a");
    child = spawn(
      "wrangler",
      [
        "dev",
        "-c",
        APP_CONFIG,
        "-c",
        MAIL_CONFIG,
        "--persist-to",
        persist,
        "--port",
        String(port),
        "--ip",
        "127.0.0.1",
        "--test-scheduled",
        "--show-interactive-dev-session=false",
        "--live-reload=false",
        "--log-level",
        // BENCH_LOG_LEVEL=log shows the Workers' console.log in the server's log file.
        process.env.BENCH_LOG_LEVEL ?? "warn",
      ],
      { stdio: ["ignore", out, out], detached: true },
    );
    const started = Date.now();
    let exited = null;
    child.once("exit", (code) => {
      exited = code;
    });
    for (;;) {
      if (exited !== null) throw new Error(`wrangler dev exited with ${exited}; see ${logFile}`);
      try {
        const res = await fetch(`${origin}/api/does-not-exist`, { signal: AbortSignal.timeout(5_000) });
        await res.arrayBuffer();
        if (res.status < 500) break;
      } catch {
        // not listening yet
      }
      if (Date.now() - started > 120_000) throw new Error(`wrangler dev did not answer within 120 s; see ${logFile}`);
      await sleep(250);
    }
    log(`  wrangler dev up on ${origin} (pid ${child.pid}, ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  };

  /**
   * Stops this wrangler dev (its process group: wrangler and the workerd it started). `kill`:
   * SIGKILL at once, as a crash (nothing is flushed, the local queue's messages are lost).
   */
  const stop = async ({ kill = false } = {}) => {
    if (!child || child.exitCode !== null) return;
    const proc = child;
    const done = new Promise((r) => proc.once("exit", r));
    try {
      process.kill(-proc.pid, kill ? "SIGKILL" : "SIGTERM");
    } catch {
      return;
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-proc.pid, "SIGKILL");
      } catch {
        // gone already
      }
    }, 10_000);
    await done;
    clearTimeout(timer);
    // workerd lets go of the D1 file a moment after wrangler exits.
    await sleep(500);
  };

  await launch();
  const server = {
    origin,
    persist,
    /** wrangler's pid, which is also its process group's: the workerd it started is in that group. */
    get pid() {
      return child?.pid;
    },
    sqlitePath,
    logFile,
    stop,
    /**
     * Stops the server (`kill`: SIGKILL, as a crash), runs `between(sqlitePath)` (e.g. more seeding)
     * and starts it again on the same data.
     */
    async restart(between, { kill = false } = {}) {
      await stop({ kill });
      if (between) await between(sqlitePath);
      await launch();
    },
  };
  activeServers.add(server);
  return server;
}

/** Every server started and not yet stopped: stopped on exit, so no wrangler dev is left behind. */
const activeServers = new Set();
export async function stopAll() {
  for (const s of activeServers) await s.stop();
  activeServers.clear();
}

/** The local D1 database's SQLite file under the persist dir. */
export function findD1File(persist) {
  const dir = resolve(persist, "v3/d1/miniflare-D1DatabaseObject");
  const files = readdirSync(dir).filter((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite");
  if (files.length !== 1) throw new Error(`expected one D1 database in ${dir}, found ${files.join(", ") || "none"}`);
  return join(dir, files[0]);
}
