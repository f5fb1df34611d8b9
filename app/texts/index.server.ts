// Text messages through Twilio (decisions/068): the one client, its signatures and status callbacks.
export {
  STANDIN_AUTH_TOKEN,
  STANDIN_MESSAGING_SERVICE_SID,
  sendText,
  statusCallbackUrl,
  type TextChannel,
  type TextFailure,
  type TextRequest,
  type TextResult,
  textChannel,
  textsAvailable,
  UNANSWERED_WAIT_MS,
} from "./client.server";
export { type TwilioParams, twilioSignature, verifyTwilioSignature } from "./signature";
export {
  isTextStatus,
  recordTextStatus,
  TEXT_STATUSES,
  type TextFate,
  type TextStatus,
  type TextStatusChange,
  textFatesOf,
} from "./status.server";
