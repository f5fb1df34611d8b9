/**
 * The mail feature's face: the one client of the mail Worker (client.server.ts), and the recorded
 * sends of every e-mail other than reminders and notices (recorded.server.ts).
 */
export { mail } from "./client.server";
export {
  type BatchSendResult,
  type DomainResult,
  INVALID_IDEMPOTENT,
  type ProviderDomain,
  type SendFailure,
  type SendResult,
} from "./contract";
export {
  EMAIL_MAX_ATTEMPTS,
  type EmailRow,
  emailLabel,
  listEmails,
  type RecordedEmail,
  retryRecordedEmails,
  sendRecorded,
} from "./recorded.server";
