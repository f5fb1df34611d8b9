import type { ReferenceRate } from "./rules";

/**
 * Published reference rates for the tests (the seed migration holds the same values with their
 * sources; decisions/064): ECB main refinancing rate, Bank of England Bank Rate, Basiszinssatz.
 */
const ecb: [string, number][] = [
  ["2022-07-27", 50],
  ["2022-09-14", 125],
  ["2022-11-02", 200],
  ["2022-12-21", 250],
  ["2023-02-08", 300],
  ["2023-03-22", 350],
  ["2023-05-10", 375],
  ["2023-06-21", 400],
  ["2023-08-02", 425],
  ["2023-09-20", 450],
  ["2024-06-12", 425],
  ["2024-09-18", 365],
  ["2024-10-23", 340],
  ["2024-12-18", 315],
  ["2025-02-05", 290],
  ["2025-03-12", 265],
  ["2025-04-23", 240],
  ["2025-06-11", 215],
];
const boe: [string, number][] = [
  ["2023-08-03", 525],
  ["2024-08-01", 500],
  ["2024-11-07", 475],
  ["2025-02-06", 450],
  ["2025-05-08", 425],
  ["2025-08-07", 400],
];
const basiszins: [string, number][] = [
  ["2023-01-01", 162],
  ["2023-07-01", 312],
  ["2024-01-01", 362],
  ["2024-07-01", 337],
  ["2025-01-01", 227],
  ["2025-07-01", 127],
];

export const RATES: readonly ReferenceRate[] = [
  ...ecb.map(([effectiveOn, rateBp]) => ({ series: "ecb_mro", effectiveOn, rateBp })),
  ...boe.map(([effectiveOn, rateBp]) => ({ series: "boe_base", effectiveOn, rateBp })),
  ...basiszins.map(([effectiveOn, rateBp]) => ({ series: "de_basiszins", effectiveOn, rateBp })),
];
