#!/usr/bin/env node
// The operator's tool for the reference rates late-payment interest is computed from
// (decisions/064; table reference_rates, seeded by the reference_rates_seed migration).
//
//   node scripts/reference-rates.mjs list [--remote]
//   node scripts/reference-rates.mjs add <series> <YYYY-MM-DD> <percent> <source> [--remote]
//
// A row is a change of a series effective from its date; "in force on D" is the series' latest
// row on or before D. `add` on a series and day that already has a row replaces its rate and
// source (a correction). Without --remote it works on the local database `npm run dev` uses.
// Bad input is refused with a message and exit code 2; wrangler's own exit code otherwise.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** The series app/domain/late-charges knows (RATE_SERIES; a unit test keeps the two equal). */
export const SERIES = ["ecb_mro", "boe_base", "de_basiszins"];
/** Series published on every 1 January and 1 July only. */
const HALF_YEARLY = new Set(["de_basiszins"]);
const MAX_SOURCE = 500;

const USAGE = `Usage:
  node scripts/reference-rates.mjs list [--remote]
  node scripts/reference-rates.mjs add <series> <YYYY-MM-DD> <percent> <source> [--remote]

  series   one of ${SERIES.join(", ")}
  percent  0 to 25, at most 2 decimals (4.5 or 4.50 for 4.50%)
  source   where the value was published (a URL or the publication's name)
  --remote the production database (default: the local one \`npm run dev\` uses)`;

function isCalendarDate(value) {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** "4.5" → 450 basis points, exactly (no float); null unless 0 ≤ percent ≤ 25 with at most 2 decimals. */
export function percentToBp(text) {
  const m = /^(\d{1,2})(?:\.(\d{1,2}))?$/.exec(text);
  if (!m) return null;
  const bp = Number(m[1]) * 100 + Number((m[2] ?? "").padEnd(2, "0"));
  return bp <= 2500 ? bp : null;
}

/** True when `text` holds a control character (a line break, a tab, NUL): a source is one line. */
function hasControlCharacter(text) {
  return [...text].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);
}

/** SQL text literal: single quotes doubled. */
const quote = (text) => `'${text.replaceAll("'", "''")}'`;

/**
 * The command line as a request, or why it is refused: { sql, remote, describe } | { error }.
 * Pure, for the unit test.
 */
export function parseCommand(argv) {
  const remote = argv.includes("--remote");
  const args = argv.filter((a) => a !== "--remote");
  const [command, ...rest] = args;
  if (command === "list") {
    if (rest.length > 0) return { error: `list takes no arguments but --remote (got ${rest.join(" ")})` };
    return {
      remote,
      describe: "reference rates",
      sql: "SELECT series, effective_on, rate_bp, source FROM reference_rates ORDER BY series, effective_on",
    };
  }
  if (command === "add") {
    if (rest.length !== 4)
      return { error: `add needs <series> <YYYY-MM-DD> <percent> <source> (got ${rest.length} arguments)` };
    const [series, on, percent, rawSource] = rest;
    if (!SERIES.includes(series)) return { error: `Unknown series "${series}": use one of ${SERIES.join(", ")}` };
    if (!isCalendarDate(on)) return { error: `"${on}" is not a date: write it as YYYY-MM-DD (2026-07-01)` };
    if (HALF_YEARLY.has(series) && !/-(01-01|07-01)$/.test(on)) {
      return { error: `${series} changes only on 1 January and 1 July: "${on}" is neither` };
    }
    const bp = percentToBp(percent);
    if (bp === null)
      return { error: `"${percent}" is not a percentage from 0 to 25 with at most 2 decimals (4.5 or 4.50)` };
    const source = rawSource.trim();
    if (source === "") return { error: "Say where the value was published (a URL or the publication's name)" };
    if (source.length > MAX_SOURCE || hasControlCharacter(source)) {
      return { error: `The source must be one line of at most ${MAX_SOURCE} characters` };
    }
    return {
      remote,
      describe: `${series} ${(bp / 100).toFixed(2)}% from ${on}`,
      sql:
        "INSERT INTO reference_rates (series, effective_on, rate_bp, source) " +
        `VALUES (${quote(series)}, ${quote(on)}, ${bp}, ${quote(source)}) ` +
        "ON CONFLICT (series, effective_on) DO UPDATE SET rate_bp = excluded.rate_bp, source = excluded.source",
    };
  }
  return { error: command ? `Unknown command "${command}"` : "Say what to do: list or add" };
}

/** The wrangler arguments for a request: the DB binding of wrangler.toml, locally the dev database. */
export function wranglerArgs(request) {
  return [
    "d1",
    "execute",
    "DB",
    request.remote ? "--remote" : "--local",
    "-c",
    "wrangler.toml",
    ...(request.remote ? [] : ["--persist-to", ".wrangler/state"]),
    "--command",
    request.sql,
  ];
}

function main() {
  const request = parseCommand(process.argv.slice(2));
  if ("error" in request) {
    console.error(`${request.error}\n\n${USAGE}`);
    process.exit(2);
  }
  const local = join(ROOT, "node_modules", ".bin", "wrangler");
  const wrangler = existsSync(local) ? local : "wrangler";
  console.log(`[dunly] ${request.describe} (${request.remote ? "remote" : "local"} database)`);
  const run = spawnSync(wrangler, wranglerArgs(request), { cwd: ROOT, stdio: "inherit" });
  process.exit(run.status ?? 1);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
