import { addDays, halfYearStart } from "./days";
import { isRateSeries, RATE_SERIES_INFO, type RateSeries, type ReferenceRate, type StatutoryRule } from "./rules";

/**
 * The reference rate of `series` in force on `on`: the series' latest change effective on or before
 * that day, or null when there is none. For a series published every half-year (the Basiszinssatz)
 * on a half-year's first day, that day's own row is required: without it the table is out of date.
 */
export function rateInForce(
  series: RateSeries | string,
  on: string,
  rates: readonly ReferenceRate[],
): ReferenceRate | null {
  let best: ReferenceRate | null = null;
  for (const rate of rates) {
    if (rate.series !== series || rate.effectiveOn > on) continue;
    if (!best || rate.effectiveOn > best.effectiveOn) best = rate;
  }
  if (best && isRateSeries(series) && RATE_SERIES_INFO[series].everyHalfYear && best.effectiveOn < halfYearStart(on)) {
    return null;
  }
  return best;
}

/**
 * The day whose reference rate a rule applies to interest for `day`, given the debt's first day
 * of interest `startOn`: the first day of `day`'s half-year ("half_year"), or the 31 December /
 * 30 June before the half-year of `startOn` ("fixed_at_start", the same for every day).
 */
export function fixingDate(rule: StatutoryRule, startOn: string, day: string): string {
  if (rule.fixing === "half_year") return halfYearStart(day);
  return addDays(halfYearStart(startOn), -1);
}

/**
 * The yearly rate (basis points) of `rule` for a reference rate: reference + margin, rounded up
 * where the law says so, and never below zero.
 */
export function ruleRateBp(rule: StatutoryRule, referenceBp: number): number {
  let bp = referenceBp + rule.marginBp;
  if (rule.roundUpBp) bp = Math.ceil(bp / rule.roundUpBp) * rule.roundUpBp;
  return Math.max(0, bp);
}

/**
 * The yearly rate `rule` charges on a debt whose interest starts on `startOn`, for interest on
 * `day` (by default `startOn`): what a settings page shows as "currently 10.15%". "no-rate" when
 * the reference rate it needs is not in `rates`.
 */
export function ruleRateOn(
  rule: StatutoryRule,
  rates: readonly ReferenceRate[],
  startOn: string,
  day: string = startOn,
): { rateBp: number; referenceBp: number; fixedOn: string } | { error: "no-rate"; series: string; on: string } {
  const fixedOn = fixingDate(rule, startOn, day);
  const reference = rateInForce(rule.series, fixedOn, rates);
  if (!reference) return { error: "no-rate", series: rule.series, on: fixedOn };
  return { rateBp: ruleRateBp(rule, reference.rateBp), referenceBp: reference.rateBp, fixedOn };
}

/** The latest row of `series` in `rates` (what the table knows through), or null. */
export function latestRate(series: RateSeries | string, rates: readonly ReferenceRate[]): ReferenceRate | null {
  let latest: ReferenceRate | null = null;
  for (const rate of rates)
    if (rate.series === series && (!latest || rate.effectiveOn > latest.effectiveOn)) latest = rate;
  return latest;
}
