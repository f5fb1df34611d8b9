import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { rateInForce } from "../app/domain/late-charges/rates";
import { RATE_SERIES, type ReferenceRate } from "../app/domain/late-charges/rules";
import { RATES } from "../app/domain/late-charges/test-rates";
import { parseCommand, percentToBp, SERIES, wranglerArgs } from "./reference-rates.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

describe("scripts/reference-rates.mjs", () => {
  it("knows the series the maths knows", () => {
    expect(SERIES).toEqual([...RATE_SERIES]);
  });

  it("reads a percentage exactly, 0 to 25 with at most 2 decimals", () => {
    expect(["0", "4.5", "4.50", "2.15", "25", "25.00", "0.05"].map(percentToBp)).toEqual([
      0, 450, 450, 215, 2500, 2500, 5,
    ]);
    for (const bad of ["25.01", "-1", "2.155", "4,5", "", "1e1", " 4", "abc", "100"])
      expect(percentToBp(bad)).toBeNull();
  });

  it("adds a rate as one upsert, its source quoted", () => {
    const request = parseCommand(["add", "ecb_mro", "2026-07-01", "2.4", "ECB press release, O'Neill"]);
    expect(request).toEqual({
      remote: false,
      describe: "ecb_mro 2.40% from 2026-07-01",
      sql: "INSERT INTO reference_rates (series, effective_on, rate_bp, source) VALUES ('ecb_mro', '2026-07-01', 240, 'ECB press release, O''Neill') ON CONFLICT (series, effective_on) DO UPDATE SET rate_bp = excluded.rate_bp, source = excluded.source",
    });
    if ("error" in request) throw new Error(request.error);
    expect(wranglerArgs(request).slice(0, 8)).toEqual([
      "d1",
      "execute",
      "DB",
      "--local",
      "-c",
      "wrangler.toml",
      "--persist-to",
      ".wrangler/state",
    ]);
    const remote = parseCommand(["list", "--remote"]);
    if ("error" in remote) throw new Error(remote.error);
    expect(wranglerArgs(remote).slice(0, 6)).toEqual(["d1", "execute", "DB", "--remote", "-c", "wrangler.toml"]);
  });

  it("refuses bad input, saying why", () => {
    const refused = (argv: string[]) => {
      const r = parseCommand(argv);
      return "error" in r ? r.error : null;
    };
    expect(refused([])).toMatch(/list or add/);
    expect(refused(["drop"])).toMatch(/Unknown command/);
    expect(refused(["list", "extra"])).toMatch(/no arguments/);
    expect(refused(["add", "ecb_mro", "2026-07-01", "2.4"])).toMatch(/needs/);
    expect(refused(["add", "fed_funds", "2026-07-01", "2.4", "x"])).toMatch(/Unknown series/);
    expect(refused(["add", "ecb_mro", "2026-02-30", "2.4", "x"])).toMatch(/not a date/);
    expect(refused(["add", "ecb_mro", "1/7/2026", "2.4", "x"])).toMatch(/not a date/);
    expect(refused(["add", "de_basiszins", "2026-06-30", "1.5", "x"])).toMatch(/1 January and 1 July/);
    expect(refused(["add", "boe_base", "2026-08-06", "26", "x"])).toMatch(/percentage/);
    expect(refused(["add", "boe_base", "2026-08-06", "3.5", "  "])).toMatch(/where the value was published/);
    expect(refused(["add", "boe_base", "2026-08-06", "3.5", "a\nb"])).toMatch(/one line/);
  });
});

/** The seed migration's rows (its file is renumbered at merge: found by its name). */
function seedRows(): (ReferenceRate & { source: string })[] {
  const dir = join(ROOT, "migrations");
  const file = readdirSync(dir).find((name) => name.endsWith("_reference_rates_seed.sql"));
  if (!file) throw new Error("no reference_rates_seed migration");
  const sql = readFileSync(join(dir, file), "utf8");
  return [...sql.matchAll(/\('([a-z_]+)', '(\d{4}-\d{2}-\d{2})', (-?\d+), '((?:[^']|'')*)'\)/g)].map((m) => ({
    series: m[1] ?? "",
    effectiveOn: m[2] ?? "",
    rateBp: Number(m[3]),
    source: m[4] ?? "",
  }));
}

describe("the reference-rate seed", () => {
  const rows = seedRows();

  it("holds each series with its source, one row per series and day", () => {
    expect(new Set(rows.map((r) => r.series))).toEqual(new Set(RATE_SERIES));
    expect(new Set(rows.map((r) => `${r.series} ${r.effectiveOn}`)).size).toBe(rows.length);
    for (const r of rows) {
      expect(r.source).toMatch(/https:\/\//);
      expect(r.rateBp).toBeGreaterThanOrEqual(-100);
      expect(r.rateBp).toBeLessThanOrEqual(2500);
    }
  });

  it("has every 1 January and 1 July Basiszinssatz since 2022", () => {
    const days = rows.filter((r) => r.series === "de_basiszins").map((r) => r.effectiveOn);
    expect(days).toEqual(
      ["2022", "2023", "2024", "2025"].flatMap((y) => [`${y}-01-01`, `${y}-07-01`]).concat("2026-01-01"),
    );
  });

  it("moves the Basiszinssatz by the ECB rate's moves between half-years (§ 247 BGB)", () => {
    // § 247 Abs. 1 BGB: on each 1 January and 1 July it changes by the points the ECB's latest
    // main refinancing rate before that day moved since the last change. Two sources, one check.
    const basiszins = rows.filter((r) => r.series === "de_basiszins");
    for (let i = 1; i < basiszins.length; i++) {
      const [before, after] = [basiszins[i - 1], basiszins[i]];
      if (!before || !after) continue;
      const dayBefore = (iso: string) => new Date(Date.parse(iso) - 86_400_000).toISOString().slice(0, 10);
      const ecbThen = rateInForce("ecb_mro", dayBefore(before.effectiveOn), rows)?.rateBp;
      const ecbNow = rateInForce("ecb_mro", dayBefore(after.effectiveOn), rows)?.rateBp;
      if (ecbThen === undefined || ecbNow === undefined) throw new Error(`no ECB rate before ${after.effectiveOn}`);
      expect(after.rateBp - before.rateBp, after.effectiveOn).toBe(ecbNow - ecbThen);
    }
  });

  it("agrees with the values the unit tests use", () => {
    for (const rate of RATES) {
      expect(rows, `${rate.series} ${rate.effectiveOn}`).toContainEqual(expect.objectContaining(rate));
    }
  });
});
