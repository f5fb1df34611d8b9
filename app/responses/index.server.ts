/** The responses feature's public face: what routes, the API, the Workers and other features may use. */
export { disputeInvoice, resolveDispute } from "./disputes.server";
export {
  countBouncingDebtors,
  forgetWebhookEvent,
  recordComplaint,
  recordDelivered,
  recordHardBounce,
  recordWebhookEvent,
} from "./mail-events.server";
export { copiedContacts, isOptedOut, optOutAddress, optOutCopies, renewConsent } from "./opt-outs.server";
export {
  type ConfirmOutcome,
  claimPaid,
  confirmNothingOwed,
  confirmPaidClaim,
  paidClaimsOf,
  paidClaimsQuery,
  paidClaimView,
  pendingClaim,
  rejectClaim,
} from "./paid-claims.server";
export {
  chargeTotalsFrom,
  claimFormOf,
  claimSaidOf,
  DEBTOR_RESPONSES_LIMIT,
  type DebtorResponse,
  debtorResponsesOf,
  debtorResponsesQuery,
  OPT_OUT_ANSWER_DAYS,
  type OwedTotal,
  owedTotalsFrom,
  owedTotalsOf,
  owedTotalsQuery,
  type PortalState,
  portalState,
  statementDocumentOf,
} from "./portal.server";
export { allowNewPromise, endDuePromises, PROMISES_PER_PAGE, promiseToPay } from "./promises.server";
export {
  askForContact,
  handleReply,
  type InboundText,
  REJECTIONS,
  receiveReply,
  receiveText,
  TEXT_REPLY_SUBJECT,
  type TextOutcome,
} from "./replies.server";
export { debtorRepliesQuery, type ReplyView, replyViewsOf } from "./reply-list.server";
export { isTextOptedOut, optInNumber, optOutNumber } from "./text-opt-outs.server";
