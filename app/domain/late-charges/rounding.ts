import { isZeroDecimal } from "../money";

/**
 * Exact money: amounts as integer cents (Dunly's minor unit: hundredths of every currency,
 * app/domain/money.ts) and accrued interest as an exact fraction of cents, rounded once per charge
 * to the currency's own smallest unit, half up.
 */

/** An exact non-negative amount of cents: numerator / denominator. */
export interface Exact {
  num: bigint;
  den: bigint;
}

/** The number of decimals of `currency` (ISO 4217, by the runtime's Intl data): JPY 0, EUR 2, KWD 3. */
export function currencyDecimals(currency: string): number {
  try {
    return new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/**
 * The currency's smallest unit in Dunly's cents: 100 for a currency without decimals (1 yen is
 * stored as 100; the ones money.ts counts in whole units, or ISO 4217 says have none), 1 for every
 * other. Dunly stores hundredths, so a 3-decimal currency (KWD, BHD) is rounded to its hundredth:
 * the finest amount the ledger can hold.
 */
export function minorUnitCents(currency: string): number {
  if (isZeroDecimal(currency)) return 100;
  const decimals = currencyDecimals(currency);
  return decimals >= 2 ? 1 : 10 ** (2 - decimals);
}

/** `x` rounded half up to a multiple of `unit` cents (x ≥ 0). */
export function roundHalfUp(x: Exact, unit: number): number {
  const u = BigInt(unit);
  // floor(x / u + 1/2) * u, in integers: floor((2·num + den·u) / (2·den·u)) · u.
  const units = (2n * x.num + x.den * u) / (2n * x.den * u);
  return Number(units * u);
}

/** `x` rounded down to a multiple of `unit` cents (x ≥ 0): a cap is never exceeded by rounding. */
export function roundDown(x: Exact, unit: number): number {
  const u = BigInt(unit);
  return Number((x.num / (x.den * u)) * u);
}
