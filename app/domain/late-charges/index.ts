/**
 * Late-payment charges, the pure part (decisions/064): the statutory rules as data, reference-rate
 * fixing, the interest and fee maths in exact integers, and the charges in words. Client-safe, no I/O.
 */
export {
  type ChargeBasis,
  type ComputedCharge,
  type ComputeResult,
  computeCharges,
  type InvoiceHistory,
  isChargeBasis,
  type MonthRun,
  type NoChargeReason,
  type RatePeriod,
} from "./compute";
export { addDays, addMonths, halfYearStart } from "./days";
export { type ChargeFormat, chargeLabel, describeCharge, describeNoCharge, formatRate } from "./describe";
export { fixingDate, latestRate, rateInForce, ruleRateBp, ruleRateOn } from "./rates";
export { currencyDecimals, minorUnitCents } from "./rounding";
export {
  CONTRACT_KINDS,
  CONTRACT_LIMITS,
  type CompensationBand,
  type ContractKind,
  type ContractTerms,
  compensationFor,
  contractTermsProblems,
  type Fixing,
  isLateChargeRule,
  isRateSeries,
  isStatutoryRule,
  type LateChargeRuleId,
  type LateChargeTerms,
  type LawName,
  RATE_SERIES,
  RATE_SERIES_INFO,
  type RateSeries,
  type RateSeriesInfo,
  type ReferenceRate,
  ruleSummary,
  STATUTORY_RULES,
  type StatutoryRule,
  type StatutoryRuleId,
  statutoryRule,
} from "./rules";
