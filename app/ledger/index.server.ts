/** The ledger feature's public face: what routes, the API, the Workers and other features may use. */

export {
  debtorChargeTotalsOf,
  debtorChargeTotalsSql,
  PORTAL_CHARGE_LIMIT,
  type PortalCharge,
  portalChargesOf,
  portalChargesQuery,
} from "./charge-lines.server";
export {
  type AccrualOutcome,
  accrueAccount,
  accrueAfterWrite,
  accrueCharges,
  runDailyAccrual,
} from "./charges/accrual.server";
export { type ChargeRowRead, type ChargeView, chargeViews, debtorChargesQuery } from "./charges/listing.server";
export { closeDisputePauseStatement, openDisputePauseStatement, pauseDay } from "./charges/pauses.server";
export {
  readTermsAndRates,
  ruleExplanations,
  saveTerms,
  type TermsRow,
} from "./charges/terms.server";
export { restoreCharge, type WaiverOutcome, waiveCharge } from "./charges/waivers.server";
export {
  attachInvoiceDocument,
  DocumentRejected,
  deleteDebtorDocuments,
  invoiceDocument,
  pdfHeaders,
  removeInvoiceDocument,
} from "./documents.server";
export { invoiceEntity } from "./invoice-entity.server";
export {
  debtorInvoicesQuery,
  followSyncedInvoice,
  type InvoiceRow,
  type InvoiceWrite,
  invoiceToJson,
  listInvoices,
  MAX_INVOICES_PER_DEBTOR,
  SYNCED_INVOICE_MESSAGE,
  voidInvoice,
} from "./invoices.server";
export {
  commitLedgerWrite,
  insertInvoiceStatement,
  isNumberTaken,
  settleDebtorsStatements,
  settleLedgerStatements,
} from "./ledger.server";
export { agingReportOf, agingStatement, moneyOf, moneyStatement } from "./money.server";
export { onlinePaymentOf, type PayTarget } from "./online/checkout.server";
export { handleConnectEvent } from "./online/connect-events.server";
export { CHECKOUT_LIFETIME_MS, expireAbandonedCheckouts, pendingOnlinePayment } from "./online/online-payments.server";
export { payOnline, paysOnline } from "./online/pay.server";
export { accountRowQuery, disconnectAccount, startOnboarding, stripeConnectView } from "./online/stripe-account.server";
export { paymentEntity } from "./payment-entity.server";
export {
  addPayment,
  deletePayment,
  listPayments,
  type PaymentWrite,
  type PaymentWriteError,
  paymentToJson,
  readSettled,
  SETTLE_STATEMENTS,
  settleStatements,
  syncedPaymentsOn,
} from "./payments.server";
export { sendPlanLetter } from "./plans/plan-letters.server";
export { PLANS_PER_RUN, type PlanWatch, watchPlans } from "./plans/plan-watch.server";
export {
  acceptPlan,
  breakPlan,
  cancelOffer,
  completePlansStatements,
  createPlan,
  type Decision,
  debtorPlans,
  debtorPlansRowQuery,
  debtorToday,
  debtorZone,
  declinePlan,
  editRequest,
  type NewPlan,
  ownedPlan,
  PLANS_LISTED,
  type PlanRefusal,
  type PlanView,
  plansOfRow,
  planTotals,
  skipPlanDays,
} from "./plans/plans.server";
