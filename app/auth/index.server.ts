/**
 * The auth feature's public face: sessions, users, sign-in by link, Google or password. Route
 * modules and the API also use its request entry files: context.server.ts (the request's context),
 * guard.server.ts (require a signed-in user) and sign-in-action.server.ts (the sign-in form's action).
 */
export { generateId } from "./crypto.server";
export {
  clearGoogleStateCookie,
  finishGoogleSignIn,
  GOOGLE_STATE_COOKIE,
  isGoogleConfigured,
  startGoogleSignIn,
} from "./google.server";
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
