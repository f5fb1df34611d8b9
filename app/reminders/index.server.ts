/** The reminders feature's public face: what routes, the API, the Workers and other features may use. */

export { deleteAccountSchedules } from "./account-schedules.server";
export { followAlarms, rearmSchedules, repairAlarms } from "./alarms.server";
export {
  type AccountCadence,
  type AutopilotSummary,
  autopilotSummary,
  countFollowers,
  type FollowOutcome,
  followAccountCadence,
  getAccountCadence,
  giveOwnCadence,
  joinAutopilot,
  pauseDebtors,
  resumeDebtors,
  saveAccountCadence,
  turnAutopilotOff,
  turnAutopilotOn,
} from "./autopilot.server";
export { type CommitScope, type Consequences, commit } from "./consequences.server";
export {
  abandonOccurrence,
  accountSentQuery,
  archivedOf,
  claimOccurrences,
  countedInstants,
  DELIVERY_PAGE_SIZE,
  debtorRemindedBefore,
  deliveryPages,
  deliveryTotals,
  listDeliveries,
  manualSendLoad,
  markDeliveryFailed,
  markDeliverySent,
  monthlySentQuery,
  monthlySentSince,
  monthlySeries,
  STRANDED_MESSAGE,
  sentCountOf,
  settleDeferred,
  totalsOf,
} from "./deliveries.server";
export { archivedMonths, archiveOldDeliveries } from "./delivery-archive.server";
export { replanDueSchedules, runPlanColumns } from "./due-dates.server";
export {
  BOOKS_STALE_MS,
  type ClaimRequest,
  claimArgs,
  claimHere,
  type FireOutcome,
  fireSchedule,
  type MailJob,
  type PreparedFiring,
  prepareFirings,
  settleClaim,
} from "./engine.server";
export { fireHandedOver, type HandedFiring, handOff, wakeHandoff } from "./handoff.server";
export {
  releaseDisputeHolds,
  resumableWhere,
  resumeAfterPaidClaim,
  resumeForPlan,
  resumeHeld,
  resumeHeldStatements,
  resumeStoppedSchedules,
  switchHoldStatement,
} from "./holds.server";
export { dueBatchKeys, strandedDeliveries } from "./mail-batch.server";
export { abandonStranded, consumeMail, type MailQueueMessage } from "./mail-queue.server";
export { editedSteps, resetStepText, type StepKey, saveStepText, stepTexts } from "./message-templates.server";
export { ageAccount, skipAhead } from "./occurrences.server";
export { cadenceOutlook, nextRunWhat, OUTLOOK_RUNS, withNextRunWhat } from "./outlook.server";
export { type HandleHow, handleRepliesOf } from "./reply-holds.server";
export { scheduleEntity } from "./schedule-entity.server";
export {
  countSchedules,
  enabledSchedules,
  getScheduleDetails,
  getSenderAndDebtors,
  listOverdueSchedules,
  listSchedules,
  SCHEDULE_PAGE_SIZE,
  type ScheduleListFilter,
  type ScheduleListRow,
} from "./schedules.server";
export { getStatement, openInvoicesSql } from "./statement.server";
export { claimTestSend } from "./test-send.server";
export { recoverCompanionTexts } from "./text-jobs.server";
export {
  createResendSchedules,
  pauseSchedules,
  type ResumeOutcome,
  resumeSchedules,
  sendableDebtors,
  sendNow,
  sendRefusal,
} from "./writes.server";
