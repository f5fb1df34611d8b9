/** The stripe feature's public face: what routes, the API, the Workers and other features may use. */
export { isMissingAtStripe, type StripeSetup, stripeAvailable, stripeSetup } from "./client.server";
export type { HandledEvent, StripeEndpoint, StripeEventContext } from "./events";
export { stripeSignatureHeader } from "./signature";
export { STANDIN_PRICES, STANDIN_WEBHOOK_SECRET } from "./standin/config";
export {
  accountOf,
  getObject,
  putObject,
  type StripeJson,
  standInId,
  subscriptionsOf,
  updateObject,
  withPrice,
} from "./standin/store.server";
