// `npm run bench`: builds, serves the production build with wrangler dev, seeds the accounts described in
// decisions/042 and measures; prints as it goes and writes bench/RESULTS.md. See bench/README.md for
// what each part measures, the settings (BENCH_* environment variables) and how long it takes.
import { execFileSync, spawnSync } from "node:child_process";
import { createHmac, randomBytes } from "node:crypto";
import { existsSync, writeFileSync } from "node:fs";
import os from "node:os";
import { pathToFileURL } from "node:url";
import { engineRun } from "./engine.mjs";
import { clientJs, fmt, measureRoutes, renderTime, writeUnderLoad } from "./pages.mjs";
import { seedAccount } from "./seed.mjs";
import { APP_CONFIG, BUILD_COPY, MAIL_CONFIG, snapshotBuild, startServer, stopAll } from "./server.mjs";
import { workerUploadSize } from "./sizes.mjs";

process.env.WRANGLER_SEND_METRICS = "false";
process.env.CLOUDFLARE_CF_FETCH_ENABLED = "false";
process.env.PATH = `${process.cwd()}/node_modules/.bin:${process.env.PATH}`;

// Settings ------------------------------------------------------------------------------------

const env = process.env;
const num = (name, fallback) => (env[name] !== undefined && env[name] !== "" ? Number(env[name]) : fallback);
const list = (name, fallback) =>
  (env[name] ?? fallback)
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
const triple = (name, fallback) => {
  const [debtors, schedules, deliveries] = list(name, fallback).map(Number);
  return { debtors, schedules, deliveries };
};

const PARTS = ["sizes", "plans", "pages", "js", "render", "concurrency", "engine", "limited"];
const only = new Set(list("BENCH_ONLY", PARTS.join(",")));
for (const part of only)
  if (!PARTS.includes(part)) throw new Error(`BENCH_ONLY: unknown part ${part} (${PARTS.join(", ")})`);
if (env.BENCH_SKIP_ENGINE === "1") {
  only.delete("engine");
  only.delete("limited");
}
const settings = {
  port: num("BENCH_PORT", 8811),
  connections: num("BENCH_CONNECTIONS", 10),
  seconds: num("BENCH_SECONDS", 10),
  warmupSeconds: num("BENCH_WARMUP_SECONDS", 2),
  rounds: num("BENCH_ROUNDS", 3),
  main: triple("BENCH_MAIN", "1000,1000,20000"),
  big: triple("BENCH_BIG", "2000,2000,200000"),
  loadConnections: num("BENCH_LOAD_CONNECTIONS", 200),
  loadSeconds: num("BENCH_LOAD_SECONDS", 30),
  writers: num("BENCH_WRITERS", 1),
  renderRequests: num("BENCH_RENDER_REQUESTS", 200),
  engineCounts: list("BENCH_ENGINE_COUNTS", "1000,5000").map(Number),
  limitedCounts: list("BENCH_LIMITED_COUNTS", "1000,5000").map(Number),
  engineRate: num("BENCH_ENGINE_RATE", 100),
  limitedRate: num("BENCH_LIMITED_RATE", 2),
  providerRps: num("BENCH_PROVIDER_RPS", 2),
  perAccount: num("BENCH_PER_ACCOUNT", 25),
  engineTimeoutS: env.BENCH_ENGINE_TIMEOUT_S ? Number(env.BENCH_ENGINE_TIMEOUT_S) : null,
  cronEveryS: num("BENCH_CRON_EVERY_S", 300),
  // Where the engine runs start (bench/engine.mjs, docs/decisions/024): "armed", every schedule's
  // Durable Object armed for the due instant beforehand, as production has it, the clock starting at
  // the due instant (as bench/mail.mjs); "overdue", no object armed, the clock starting at the cron.
  engineStart: env.BENCH_MAIL_START ?? "armed",
  out: env.BENCH_OUT ?? "bench/RESULTS.md",
};
const persistBase = ".wrangler/bench-state";

// Output --------------------------------------------------------------------------------------

const log = (line = "") => console.log(line);
const sections = [];
const startedAt = new Date();
const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
const mark = (ok) => (ok ? "✔" : "✖");

function machine() {
  const wrangler = spawnSync("wrangler", ["--version"], { encoding: "utf8" }).stdout.trim().split("\n").at(-1);
  let commit = "unknown";
  try {
    commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], { encoding: "utf8" }).trim();
    if (dirty) commit += " (with uncommitted changes)";
  } catch {
    // not a git checkout
  }
  return {
    cpus: os.availableParallelism(),
    model: os.cpus()[0]?.model ?? "unknown",
    memory: `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    os: `${os.type()} ${os.release()}`,
    node: process.version,
    wrangler,
    commit,
  };
}

const info = machine();
const benchEnv = Object.entries(env)
  .filter(([k]) => k.startsWith("BENCH_"))
  .map(([k, v]) => `${k}=${v}`)
  .join(" ");

function header() {
  return [
    "# Dunly benchmark results",
    "",
    "Written by `npm run bench` (bench/run.mjs; see bench/README.md). Every figure is from the production",
    "build served by `wrangler dev` on this machine, so compare runs on the same machine only.",
    "",
    `- Command: \`${benchEnv ? `${benchEnv} ` : ""}npm run bench\``,
    `- Date: ${startedAt.toISOString()}`,
    `- Machine: ${info.cpus} CPUs (nproc), ${info.model}, ${info.memory} RAM, ${info.os}`,
    `- Node ${info.node}, wrangler ${info.wrangler}, commit ${info.commit}`,
    `- Parts run: ${[...only].join(", ") || "none"}`,
    `- Load: ${settings.connections} connections, ${settings.warmupSeconds} s warm-up then ${settings.seconds} s per route in ${settings.rounds} rounds (the routes of a table in turn each round); latency is to the last byte of the body`,
    "",
  ].join("\n");
}

/** Where each part's section goes in RESULTS.md: the headline figures first, the query plans last. */
const ORDER = ["pages", "small", "js", "sizes", "render", "concurrency", "engine", "limited", "plans"];

function writeResults() {
  const ordered = [...sections].sort((a, b) => ORDER.indexOf(a.key) - ORDER.indexOf(b.key));
  writeFileSync(settings.out, `${header()}\n${ordered.map((x) => x.text).join("\n")}\n`);
}

function table(head, rows) {
  return [
    `| ${head.join(" | ")} |`,
    `|${head.map(() => "---").join("|")}|`,
    ...rows.map((r) => `| ${r.join(" | ")} |`),
  ].join("\n");
}

function section(key, title, body) {
  sections.push({ key, text: `## ${title}\n\n${body}\n` });
  writeResults();
}

// Parts ---------------------------------------------------------------------------------------

function build() {
  if (env.BENCH_SKIP_BUILD === "1") {
    log("▶ Build: skipped (BENCH_SKIP_BUILD=1), using the existing build/ and dist/");
  } else {
    log("▶ Build: react-router build");
    const started = Date.now();
    const result = spawnSync("react-router", ["build"], { stdio: ["ignore", "ignore", "inherit"] });
    if (result.status !== 0) throw new Error("react-router build failed");
    log(`  built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  snapshotBuild();
  log(`  serving a copy of the build from ${BUILD_COPY}`);
}

function sizes() {
  log("\n▶ Worker upload sizes (wrangler deploy --dry-run)");
  const rows = [];
  for (const w of [
    { name: "app Worker (dunly)", config: APP_CONFIG, out: ".wrangler/bench-bundles/app", target: 600 * 1024 },
    { name: "mail Worker (dunly-mail)", config: MAIL_CONFIG, out: ".wrangler/bench-bundles/mail", target: 250 * 1024 },
  ]) {
    const s = workerUploadSize(w.config, w.out);
    log(`  ${w.name}: ${s.files} files, ${kib(s.raw)}, ${kib(s.gzip)} gzip (target ≤ ${kib(w.target)})`);
    rows.push([
      w.name,
      String(s.files),
      kib(s.raw),
      `**${kib(s.gzip)}**`,
      `≤ ${kib(w.target)} ${mark(s.gzip <= w.target)}`,
      s.largest.map((f) => `${f.file} ${kib(f.gzip)}`).join(", "),
    ]);
  }
  section(
    "sizes",
    "Worker upload sizes",
    `\`wrangler deploy --dry-run --outdir\` of each built Worker, every uploaded file gzipped and summed (as scripts/check-bundles.mjs).\n\n${table(
      ["Worker", "files", "raw", "gzip", "target", "largest files (gzip)"],
      rows,
    )}`,
  );
}

/**
 * The query plans of the signed-in pages: bench/query-plans.mjs (each page's real loader against a
 * seeded SQLite, every statement with EXPLAIN QUERY PLAN), embedded here. Its failure (a scan or a
 * repeated statement) is reported, not fatal.
 */
function plans() {
  const script = "bench/query-plans.mjs";
  log("\n▶ Query plans (node bench/query-plans.mjs)");
  if (!existsSync(script)) {
    log(`  ${script} is missing: skipped`);
    return;
  }
  const started = Date.now();
  const run = spawnSync("node", [script, "--stdout"], { encoding: "utf8", maxBuffer: 64 * 2 ** 20 });
  const text = run.stdout ?? "";
  log(
    `  ${run.status === 0 ? "no problems" : `exit ${run.status}: see the section's Problems`} (${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );
  if (run.status !== 0 && run.stderr)
    log(
      run.stderr
        .trim()
        .split("\n")
        .slice(0, 10)
        .map((l) => `    ${l}`)
        .join("\n"),
    );
  const demoted = text.replace(/^(#+) /gm, "$1## ");
  section(
    "plans",
    "Query plans",
    `From \`node bench/query-plans.mjs --stdout\` (exit ${run.status}).\n\n${demoted.trim() || `No output.\n\n\`\`\`\n${(run.stderr ?? "").slice(0, 4000)}\n\`\`\``}`,
  );
}

/** The signing secret of the benchmark's servers: the debtor's page's link is signed here as the app signs it. */
const OPT_OUT_SECRET = randomBytes(32).toString("hex");

/** The first debtor's page, /d/<key>.<HMAC-SHA256("portal:<key>:<owner>:<debtor>")> (app/links/signed-links.server.ts). */
function portalPath(acct) {
  const debtorId = acct.debtorIds[0];
  const signature = createHmac("sha256", OPT_OUT_SECRET)
    .update(`portal:${acct.firstDebtorKey}:${acct.userId}:${debtorId}`)
    .digest("base64url");
  return `/d/${acct.firstDebtorKey}.${signature}`;
}

const pageRoutes = (acct) => [
  { label: "/dashboard", path: "/dashboard" },
  { label: "/debtors-list", path: "/debtors-list" },
  { label: "/schedules-list", path: "/schedules-list" },
  { label: "/schedule", path: "/schedule" },
  { label: "/report", path: "/report" },
  { label: "/iam", path: "/iam" },
  { label: "/iam/orgs", path: "/iam/orgs" },
  { label: "/iam/subscription", path: "/iam/subscription" },
  { label: "/pricing", path: "/pricing" },
  { label: "/debtors/:id", path: `/debtors/${acct.debtorIds[0]}` },
  { label: "/debtors/import", path: "/debtors/import" },
  // The debtor's page (no session: the signed link is the key), for a debtor with three invoices.
  { label: "/d/:token (the debtor's page)", path: portalPath(acct) },
];
const resourceRoutes = (acct) => [
  { label: "/debtors/:id/timeline", path: `/debtors/${acct.debtorIds[0]}/timeline` },
  { label: "/schedules/:id", path: `/schedules/${encodeURIComponent(acct.scheduleIds[0])}` },
  { label: "/debtors/options?q=a", path: "/debtors/options?q=a" },
  { label: "/schedule/preview", path: "/schedule/preview?template=initial&tone=1" },
  { label: "GET /api/debtors", path: "/api/debtors" },
  { label: "GET /api/schedules", path: "/api/schedules" },
  { label: "/debtors.csv", path: "/debtors.csv" },
  { label: "/report.csv", path: "/report.csv" },
];
const smallRoutes = (acct) =>
  pageRoutes(acct).filter((r) => !["/iam/orgs", "/iam/subscription", "/pricing"].includes(r.label));
const trivialRoute = { label: "trivial (JSON 404)", path: "/api/does-not-exist", expect: (s) => s === 404 };

function routeTable(rows, trivial, { targetRatio } = {}) {
  return table(
    ["route", "measured URL", "p50 ms", "p99 ms", "req/s", "p50 / trivial", "errors", "body"],
    rows.map((r) => {
      const ratio = r.p50 / trivial.p50;
      const target = targetRatio ? ` ${mark(ratio <= targetRatio)}` : "";
      return [
        `\`${r.label}\``,
        `\`${r.resolved.replace(/[0-9a-z]{26}-[0-9a-f-]{36}/, "<id>")}\``,
        `**${fmt(r.p50)}**`,
        fmt(r.p99),
        fmt(r.rps),
        r === trivial ? "1×" : `${fmt(ratio)}×${target}`,
        r.errors ? `${r.errors} (${r.errorSamples[0]})` : "0",
        kib(r.avgBytes),
      ];
    }),
  );
}

const routeOptions = () => ({
  connections: settings.connections,
  seconds: settings.seconds,
  warmupSeconds: settings.warmupSeconds,
  rounds: settings.rounds,
  log,
});

/** The pages, JS, render and concurrency parts on one server: seeded accounts, signed in by session rows. */
async function dataServer() {
  const wantPages = only.has("pages");
  const now = Date.now();
  const accounts = {};
  const seedSmall = (file, key = "small") => {
    accounts[key] = seedAccount(file, { tag: "small", debtors: 1, schedules: 1, deliveries: 10, seed: 3, now });
  };
  const seedLarge = (file) => {
    const started = Date.now();
    accounts.main = seedAccount(file, { tag: "main", ...settings.main, seed: 1, now });
    accounts.big = seedAccount(file, { tag: "big", ...settings.big, seed: 2, now });
    log(`  seeded the main and the big account in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  };
  log("\n▶ Data server");
  const server = await startServer({
    port: settings.port,
    persist: `${persistBase}-pages`,
    // The write-under-load run adds debtors to the seeded account (1,000 already): no cap in the way.
    appVars: { ACCOUNT_MAX_DEBTORS: "1000000", OPT_OUT_SECRET },
    beforeStart: (file) => {
      seedSmall(file);
      seedLarge(file);
    },
    log,
  });
  try {
    const { main, small } = accounts;
    const describe = `${settings.main.debtors.toLocaleString("en")} debtors, ${settings.main.schedules.toLocaleString("en")} schedules, ${settings.main.deliveries.toLocaleString("en")} deliveries`;
    const bigDescribe = `${settings.big.debtors.toLocaleString("en")} debtors, ${settings.big.schedules.toLocaleString("en")} schedules, ${settings.big.deliveries.toLocaleString("en")} deliveries`;

    if (wantPages) {
      // The small account on two servers side by side, both fresh: one whose database holds it
      // alone, this one, where it sits beside the seeded accounts. Each route alternately on
      // both, in rounds, so the machine's drift falls on both figures alike.
      log("  a second server, whose database holds the small account alone:");
      const alone = await startServer({
        port: settings.port + 1,
        persist: `${persistBase}-alone`,
        appVars: { OPT_OUT_SECRET },
        beforeStart: (file) => seedSmall(file, "smallAlone"),
        log,
      });
      let measured;
      try {
        const sides = (account, target, side) =>
          [trivialRoute, ...smallRoutes(account)].map((r) => ({
            ...r,
            origin: target.origin,
            token: account.token,
            side,
          }));
        const aloneRoutes = sides(accounts.smallAlone, alone, "alone");
        const besideRoutes = sides(small, server, "beside");
        log(
          `  small account (1 debtor, 10 deliveries), alone and beside the seeded accounts, in ${settings.rounds} rounds:`,
        );
        measured = await measureRoutes({
          routes: aloneRoutes.flatMap((r, i) => [r, besideRoutes[i]]),
          ...routeOptions(),
        });
      } finally {
        await alone.stop();
      }
      const pairs = [];
      for (let i = 0; i < measured.length; i += 2) pairs.push({ b: measured[i], a: measured[i + 1] });
      const [trivialPair, ...routePairs] = pairs;

      log(`  seeded account (${describe}); another holds ${bigDescribe}:`);
      const [trivial, ...pages] = await measureRoutes({
        origin: server.origin,
        token: main.token,
        routes: [trivialRoute, ...pageRoutes(main)],
        ...routeOptions(),
      });
      const resources = await measureRoutes({
        origin: server.origin,
        token: main.token,
        routes: resourceRoutes(main),
        ...routeOptions(),
      });

      const worst = Math.max(...pages.map((p) => p.p50 / trivial.p50));
      section(
        "pages",
        "Signed-in pages, seeded account",
        [
          `The seeded account: ${describe} (statuses sent, failed, deferred, bounced…, over 180 days; 2% test sends).`,
          `A second account holds ${bigDescribe}; a third is the small account below.`,
          `${settings.connections} connections; the trivial route is a JSON 404 of the same Worker (same session check), measured in the same ${settings.rounds} rounds as the pages (each route in turn, ${fmt(settings.seconds / settings.rounds)} s a round, the requests pooled). Target: every page's p50 within 3× the trivial route's. Worst: ${fmt(worst)}× ${mark(worst <= 3)}.`,
          "",
          routeTable([trivial, ...pages], trivial, { targetRatio: 3 }),
          "",
          "Other signed-in routes (resource routes and the JSON API) of the same account, against the same trivial figure:",
          "",
          routeTable(resources, trivial),
        ].join("\n"),
      );

      const rows = routePairs.map(({ b, a }) => ({ label: b.label, b, a, delta: ((a.p50 - b.p50) / b.p50) * 100 }));
      const trivialDelta = ((trivialPair.a.p50 - trivialPair.b.p50) / trivialPair.b.p50) * 100;
      const worstDelta = Math.max(...rows.map((r) => r.delta));
      section(
        "small",
        "Small account: alone vs. beside 200,000 deliveries",
        [
          `The small account (1 debtor, 1 schedule, 10 deliveries) on two servers side by side, both started fresh: one whose database holds nothing else ("alone"), one that also holds the seeded account and the ${settings.big.deliveries.toLocaleString("en")}-delivery account ("beside"). Each route is measured alternately on both, in ${settings.rounds} rounds, the requests of each side pooled, so a machine that speeds up or slows down meanwhile weighs on both alike. Target: p50 within 10%. Worst: ${fmt(worstDelta)}% ${mark(worstDelta <= 10)}.`,
          "",
          table(
            [
              "route",
              "p50 alone",
              "p50 beside",
              "Δ p50",
              "p99 alone",
              "p99 beside",
              "req/s alone",
              "req/s beside",
              "errors",
            ],
            [
              [
                "trivial (JSON 404)",
                fmt(trivialPair.b.p50),
                fmt(trivialPair.a.p50),
                `${fmt(trivialDelta)}%`,
                fmt(trivialPair.b.p99),
                fmt(trivialPair.a.p99),
                fmt(trivialPair.b.rps),
                fmt(trivialPair.a.rps),
                String(trivialPair.b.errors + trivialPair.a.errors),
              ],
              ...rows.map((r) => [
                `\`${r.label}\``,
                fmt(r.b.p50),
                fmt(r.a.p50),
                `**${fmt(r.delta)}%** ${mark(r.delta <= 10)}`,
                fmt(r.b.p99),
                fmt(r.a.p99),
                fmt(r.b.rps),
                fmt(r.a.rps),
                String(r.b.errors + r.a.errors),
              ]),
            ],
          ),
        ].join("\n"),
      );
    }

    if (only.has("js")) await javascript(server, main);

    if (only.has("render")) {
      log("\n▶ Template render time");
      const r = await renderTime({
        origin: server.origin,
        token: main.token,
        debtorId: main.debtorIds[1] ?? main.debtorIds[0],
        requests: settings.renderRequests,
        log,
      });
      section(
        "render",
        "Template render time",
        [
          `${r.requests} requests one after another (one connection) to the new-schedule page's e-mail preview (\`/schedule/preview\`: the reminder rendered on the server with emails/render-reminder, the code the mail Worker sends with), every template and tone in turn. The render's own cost ≈ the preview's p50 minus the trivial route's.`,
          "",
          table(
            ["request", "p50 ms", "p99 ms", "mean req/s", "≈ render ms (p50 − trivial p50)", "errors"],
            [
              [
                "trivial (JSON 404)",
                fmt(r.trivial.p50),
                fmt(r.trivial.p99),
                fmt(r.trivial.rps),
                "–",
                String(r.trivial.errors),
              ],
              [
                "preview, sample values",
                fmt(r.sampled.p50),
                fmt(r.sampled.p99),
                fmt(r.sampled.rps),
                `**${fmt(r.sampled.p50 - r.trivial.p50)}**`,
                String(r.sampled.errors),
              ],
              [
                "preview, a debtor's values",
                fmt(r.debtor.p50),
                fmt(r.debtor.p99),
                fmt(r.debtor.rps),
                fmt(r.debtor.p50 - r.trivial.p50),
                String(r.debtor.errors),
              ],
            ],
          ),
        ].join("\n"),
      );
    }

    if (only.has("concurrency")) {
      log(
        `\n▶ ${settings.loadConnections} connections on /dashboard for ${settings.loadSeconds} s while debtors are added`,
      );
      const r = await writeUnderLoad({
        origin: server.origin,
        token: main.token,
        userId: main.userId,
        sqlitePath: server.sqlitePath,
        path: "/dashboard",
        connections: settings.loadConnections,
        seconds: settings.loadSeconds,
        writers: settings.writers,
        log,
      });
      const ok = r.read.errors === 0 && r.writes.failed === 0 && r.lostWrites === 0 && r.unexpectedRows === 0;
      section(
        "concurrency",
        `${settings.loadConnections} connections on /dashboard while debtors are added`,
        [
          `${r.connections} connections on \`${r.path.replace(/\d+$/, "<id>")}\` (the seeded account) for ${r.seconds} s; meanwhile ${r.writers} writer(s) add debtors to the same account one after another through the app's own API (\`POST /api/debtors/add\`). Afterwards the new rows are counted in D1. Target: 0 errors, 0 lost writes. ${mark(ok)}`,
          "",
          table(
            ["", "requests", "req/s", "p50 ms", "p99 ms", "errors", "statuses"],
            [
              [
                "reads: /dashboard",
                String(r.read.requests),
                fmt(r.read.rps),
                fmt(r.read.p50),
                fmt(r.read.p99),
                `**${r.read.errors}**`,
                JSON.stringify(r.read.statuses),
              ],
              [
                "writes: add debtor",
                String(r.writes.attempted),
                fmt(r.writes.attempted / r.seconds),
                fmt(r.writes.p50),
                fmt(r.writes.p99),
                `**${r.writes.failed}**`,
                JSON.stringify(r.writes.statuses),
              ],
            ],
          ),
          "",
          `Successful adds: ${r.writes.ok}; their rows in D1 afterwards: ${r.rowsFound}; **lost writes: ${r.lostWrites}**; rows without a successful answer: ${r.unexpectedRows}. The account had ${r.debtorsBefore} debtors before and ${r.debtorsAfter} after.`,
          r.read.errorSamples.length + r.writes.samples.length > 0
            ? `\nError samples: ${[...r.read.errorSamples, ...r.writes.samples].map((s) => `\`${s}\``).join(", ")}`
            : "",
        ].join("\n"),
      );
    }
  } finally {
    await server.stop();
  }
}

const kb = (bytes) => `${(bytes / 1000).toFixed(1)} KB`;

/**
 * The budgeted measurement of scripts/client-js.mjs (the client build's manifests: the figures
 * the build's budgets check) when it is there, beside the bench's own from each page's served
 * HTML (bench/client-js.mjs), which checks that what the server really sends agrees.
 */
async function canonicalClientJs(clientDir) {
  const file = "scripts/client-js.mjs";
  if (!existsSync(file)) return null;
  try {
    const mod = await import(pathToFileURL(file).href);
    return typeof mod.clientJs === "function" ? mod.clientJs({ clientDir }) : null;
  } catch (error) {
    log(`  (${file} could not be used: ${error.message})`);
    return null;
  }
}

/** The first-load budgets (KB = 1,000 bytes) for the fallback table. */
const jsBudget = (pattern) =>
  pattern === "/" || pattern === "/pricing"
    ? 120_000
    : pattern === "/dashboard" || pattern === "/schedule"
      ? 200_000
      : 150_000;

async function javascript(server, main) {
  log("\n▶ First-load JavaScript");
  const clientDir = `${BUILD_COPY}/build/client`;
  const pages = [
    { label: "/", pattern: "/", path: "/", token: null, who: "public" },
    { label: "/welcome", pattern: "/welcome", path: "/welcome", token: null, who: "public" },
    ...pageRoutes(main).map((r) => ({
      ...r,
      pattern: r.label.startsWith("/iam") ? "/iam/:tab?" : r.label,
      token: main.token,
      who: "signed-in",
    })),
  ];
  const served = await clientJs({ origin: server.origin, pages, clientDir });
  const chart = (r) => r.lazy.roots.filter((x) => /notifications-chart/.test(x.module)).reduce((t, x) => t + x.gzip, 0);
  const canonical = await canonicalClientJs(clientDir);
  let body;
  if (canonical) {
    const servedBy = (pattern) => served.find((r) => r.pattern === pattern);
    for (const r of canonical) {
      log(`  ${r.path.padEnd(20)} ${kb(r.firstLoad)}${r.lazy ? ` + ${kb(r.lazy)} lazy` : ""} (budget ${kb(r.budget)})`);
    }
    body = [
      "Gzip bytes (KB = 1,000 bytes), each file gzipped on its own and counted once. Budgeted figures from scripts/client-js.mjs (the client build's React Router and Vite manifests: entry, root and the matched route modules with their static imports; for /dashboard the chart it loads after hydration counts too). Beside them, bench/client-js.mjs from the HTML each page really sends (its modulepreload links and inline module imports, followed through static imports): the two should agree.",
      "",
      table(
        [
          "page",
          "who",
          "first load",
          "+ lazy (counted)",
          "total",
          "budget",
          "",
          "served HTML: first load",
          "served HTML: loaded on demand",
        ],
        canonical.map((r) => {
          const h = servedBy(r.path);
          return [
            `\`${r.path}\``,
            r.audience,
            kb(r.firstLoad),
            r.lazy ? kb(r.lazy) : "–",
            `**${kb(r.total)}**`,
            kb(r.budget),
            mark(r.total <= r.budget),
            h ? `${kb(h.gzip)} (${h.files} files)` : "–",
            h ? h.lazy.roots.map((x) => `${x.module.replace("/assets/", "")} ${kb(x.gzip)}`).join(", ") || "–" : "–",
          ];
        }),
      ),
    ].join("\n");
  } else {
    for (const r of served)
      log(`  ${r.label.padEnd(22)} ${kb(r.gzip)} gzip, ${r.files} files (+ ${kb(r.lazy.gzip)} on demand)`);
    body = [
      "From the HTML each page really sends (modulepreload links and the inline module's imports), followed through static imports in the client build; each file gzipped on its own and summed, KB = 1,000 bytes (bench/client-js.mjs). The budgets; /dashboard counts its chart, loaded right after hydration.",
      "",
      table(
        ["page", "files", "first load", "counted", "budget", "", "loaded on demand"],
        served.map((r) => {
          const counted = r.pattern === "/dashboard" ? r.gzip + chart(r) : r.gzip;
          const budget = jsBudget(r.pattern);
          return [
            `\`${r.label}\``,
            String(r.files),
            kb(r.gzip),
            `**${kb(counted)}**`,
            kb(budget),
            mark(counted <= budget),
            r.lazy.roots.map((x) => `${x.module.replace("/assets/", "")} ${kb(x.gzip)}`).join(", ") || "–",
          ];
        }),
      ),
    ].join("\n");
  }
  section("js", "First-load JavaScript", body);
}

async function engine(mode, counts) {
  const limited = mode === "limited";
  const results = [];
  for (const count of counts) {
    const rate = limited ? settings.limitedRate : settings.engineRate;
    const timeoutS =
      settings.engineTimeoutS ??
      (limited ? Math.ceil(count / settings.providerRps) * 1.5 + 900 : 900 + Math.ceil(count * 0.2));
    log(
      `\n▶ Engine run: ${count} schedules due together, ${limited ? `fake provider at ${settings.providerRps} requests/s` : "dev outbox"}, MAIL_SENDS_PER_SECOND=${rate} (timeout ${timeoutS} s)`,
    );
    const r = await engineRun({
      mode,
      count,
      port: settings.port,
      persist: `${persistBase}-${mode}-${count}`,
      sendsPerSecond: rate,
      providerRps: settings.providerRps,
      perAccount: settings.perAccount,
      timeoutS,
      cronEveryS: settings.cronEveryS,
      start: settings.engineStart,
      log,
    });
    log(
      `  ${r.timedOut ? "TIMED OUT: " : ""}sent ${r.sent}/${count}, failed ${r.failed}; last sent ${fmt(r.timeToLastS)} s after the ${settings.engineStart === "armed" ? "due instant" : "trigger"} (${fmt(r.sendsPerS, 2)}/s); duplicates at the receiving end: ${r.received.extraMessages}`,
    );
    results.push(r);
  }
  const title = limited
    ? `Engine run against a fake provider limited to ${settings.providerRps} requests per second`
    : "Engine run with the dev outbox";
  const intro = limited
    ? `The mail Worker sends to bench/fake-provider.mjs (RESEND_API_KEY=re_bench, RESEND_BASE_URL pointing at it): Resend's POST /emails, honouring Idempotency-Key, answering 429 with Retry-After: 1 beyond ${settings.providerRps} accepted requests in any rolling second. MAIL_SENDS_PER_SECOND=${settings.limitedRate}. Duplicates are counted in the provider's own log (messages per recipient beyond 1).`
    : `The mail Worker without RESEND_API_KEY (APP_ENV=test): reminders go to the dev outbox (D1). MAIL_SENDS_PER_SECOND=${settings.engineRate}. Duplicates are counted in the dev outbox (messages per recipient beyond 1).`;
  section(
    mode === "limited" ? "limited" : "engine",
    title,
    [
      `${intro} Each run: a fresh server; N ENABLED schedules, each to its own debtor and address (debtors in a zone where it is daytime), ${settings.perAccount} per account (plan aggressive, 50 a day: no sending limit applies), ${
        settings.engineStart === "armed"
          ? "all due at the same instant a little ahead, every schedule's Durable Object armed for it beforehand through the watchdog's repair (as production has them: armed when the schedule is saved); times count from the due instant (docs/decisions/024; BENCH_MAIL_START=overdue: no object armed, due six minutes ago, times from the cron trigger)"
          : "all due at the same instant six minutes ago, no object armed; times count from the cron trigger"
      }; the cron trigger (\`GET /cdn-cgi/handler/scheduled?cron=…\`) runs again every ${settings.cronEveryS} s while anything is left, as the real cron, and D1 is polled until every delivery is 'sent' or 'failed'.`,
      "",
      table(
        [
          "schedules",
          "accounts",
          "first sent after",
          "last sent after",
          "sends/s",
          "sent",
          "failed",
          "other",
          "duplicates (extra messages)",
          "cron runs",
          "result",
        ],
        results.map((r) => {
          const other = Object.entries(r.byStatus)
            .filter(([s]) => s !== "sent" && s !== "failed")
            .map(([s, n]) => `${s} ${n}`)
            .join(", ");
          const clean = !r.timedOut && r.failed === 0 && r.received.extraMessages === 0 && r.sent === r.count;
          return [
            r.count.toLocaleString("en"),
            String(r.accounts),
            r.timeToFirstS === null ? "–" : `${fmt(r.timeToFirstS)} s`,
            r.timeToLastS === null ? "–" : `**${fmt(r.timeToLastS)} s**`,
            `**${fmt(r.sendsPerS, 2)}**`,
            String(r.sent),
            `**${r.failed}**`,
            other || "–",
            `**${r.received.extraMessages}** (${r.received.duplicateRecipients} recipients)`,
            String(r.triggers),
            r.timedOut ? `✖ timed out after ${fmt(r.waitedS, 0)} s` : mark(clean),
          ];
        }),
      ),
      "",
      ...results.flatMap((r) => [
        `- ${r.count.toLocaleString("en")}: received ${r.received.messages} messages for ${r.received.distinct} recipients at the ${r.received.where}` +
          (r.received.requests !== undefined
            ? `; ${r.received.requests} requests, ${r.received.rateLimited} answered 429, ${r.received.replays} idempotent replays`
            : "") +
          (r.failures.length > 0 ? `; failed: ${r.failures.map((f) => `${f.n} × "${f.error}"`).join("; ")}` : "") +
          (r.schedulesWithSeveralDeliveries > 0
            ? `; ${r.schedulesWithSeveralDeliveries} schedules with more than one delivery`
            : ""),
      ]),
    ].join("\n"),
  );
}

// Main ----------------------------------------------------------------------------------------

async function main() {
  log(`Dunly benchmark: ${[...only].join(", ")}`);
  log(`  ${info.cpus} CPUs, ${info.model}; node ${info.node}; wrangler ${info.wrangler}; commit ${info.commit}`);
  build();
  if (only.has("sizes")) sizes();
  if (only.has("plans")) plans();
  if (["pages", "js", "render", "concurrency"].some((p) => only.has(p))) await dataServer();
  if (only.has("engine")) await engine("outbox", settings.engineCounts);
  if (only.has("limited")) await engine("limited", settings.limitedCounts);
  writeResults();
  log(`\nWrote ${settings.out} (${((Date.now() - startedAt.getTime()) / 60_000).toFixed(1)} min)`);
}

const shutdown = async (code) => {
  await stopAll();
  process.exit(code);
};
process.on("SIGINT", () => shutdown(130));
process.on("SIGTERM", () => shutdown(143));

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  main()
    .then(() => shutdown(0))
    .catch(async (error) => {
      console.error(error);
      writeResults();
      await shutdown(1);
    });
}
