/** The auth feature's public face: what routes, the API, the Workers and other features may use. */
export { type AppContext, createAppContext, getApp, sessionUser } from "./context.server";
export { generateId } from "./crypto.server";
export {
  clearGoogleStateCookie,
  consumeOAuthState,
  exchangeGoogleCode,
  GOOGLE_STATE_COOKIE,
  GoogleSignInError,
  isGoogleConfigured,
  startGoogleSignIn,
  userForGoogleIdentity,
} from "./google.server";
export { redirectSignedIn, requireUser, requireUserWith } from "./guard.server";
export { clientKey, consumeLoginToken, peekLoginToken } from "./magic-link.server";
export { authenticateWithPassword, checkUserPassword, hasPassword, setPassword } from "./password.server";
export {
  clearSessionCookie,
  invalidateOtherSessions,
  invalidateSession,
  readSessionToken,
  type SessionUser,
  sessionCookie,
  startSession,
} from "./session.server";
export { SessionGate } from "./session-gate.server";
export { requestMagicLink } from "./sign-in-action.server";
export {
  getProfile,
  infoSettingsOf,
  infoSettingsQuery,
  profileToJson,
  setDefaultCurrency,
  setNoticeSwitches,
  setPaymentUrl,
  setProfileImage,
  updateContactSettings,
  updateProfileName,
  upsertVerifiedUser,
} from "./users.server";
