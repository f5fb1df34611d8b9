/** The billing feature's public face: what routes, the API, the Workers and other features may use. */
export { handleBillingEvent } from "./billing-events.server";
export { checkoutUrl, portalUrl } from "./checkout.server";
export { getBilling } from "./subscriptions.server";
export { sendTrialNotices } from "./trial.server";
