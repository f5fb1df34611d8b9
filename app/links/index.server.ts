/** The links feature's public face: what routes, the API, the Workers and other features may use. */
export { paidClaimLink, portalLink, verifyPaidClaimToken, verifyPortalToken } from "./debtor-pages.server";
export {
  BRAND_COLUMNS,
  brandOfRow,
  debtorParties,
  invoiceRefs,
  keyAfterAddressChange,
  type OptOutTarget,
  optOutLink,
  replyAddress,
  shortPortalLink,
  verifyOptOutToken,
  verifyReplyAddress,
  verifyShortPortalToken,
} from "./signed-links.server";
