/** The activity feature's public face: what routes, the API, the Workers and other features may use. */
export { type DebtorEventType, debtorEventInsert, debtorEventWhere } from "./debtor-events.server";
export {
  noticeInsert,
  noticeSwitchQuery,
  sendDailyDigests,
  sendNotices,
  sendNoticesAfter,
  sendStaleNotices,
} from "./notices.server";
