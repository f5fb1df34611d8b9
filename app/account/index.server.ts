/** The account feature's public face: what routes, the API, the Workers and other features may use. */

export {
  getBrand,
  logoObjectKey,
  logoOwner,
  POWERED_BY_REFUSED,
  removeLogo,
  replaceLogo,
  saveBrand,
} from "./brand.server";
export {
  type AccountJob,
  accountsBeingDeleted,
  consumeAccountJobs,
  continueAccountDeletion,
  queueAccountDeletion,
  startAccountDeletion,
} from "./delete.server";
export { exportStream } from "./export.server";
export {
  ImageRejected,
  isOwnImageKey,
  replaceProfileImage,
  signedImageUrl,
  storeProfileImage,
  verifyImageSignature,
} from "./images.server";
export {
  type AddOutcome,
  addSendingDomain,
  type CheckOutcome,
  checkSendingDomain,
  type RemoveOutcome,
  recheckSendingDomains,
  removeSendingDomain,
  type SendingDomain,
  sendingDomainOf,
} from "./sending-domain.server";
