/** The debtors feature's public face: what routes, the API, the Workers and other features may use. */
export { contactEntity } from "./contact-entity.server";
export {
  ContactLimitReached,
  type ContactRow,
  contactRowOf,
  contactToJson,
  debtorContactsQuery,
  listContacts,
  primaryContactToJson,
} from "./contacts.server";
export { debtorEntity } from "./debtor-entity.server";
export {
  DEBTOR_OPTIONS_LIMIT,
  DEBTOR_PAGE_SIZE,
  type DebtorRow,
  debtorChoice,
  debtorChoiceOf,
  debtorChoiceQuery,
  debtorNames,
  debtorRowOf,
  debtorsListQueries,
  debtorToJson,
  getDebtor,
  getDebtorOption,
  listDebtors,
  searchDebtorOptions,
} from "./debtors.server";
export {
  debtorExportPages,
  debtorsCapRefusal,
  type Imported,
  ImportNumberTaken,
  importDebtors,
  importLookup,
  invoiceExportPages,
} from "./import.server";
export { organizationEntity } from "./organization-entity.server";
export { listOrganizations, organizationToJson } from "./organizations.server";
export {
  type DebtorTimeline,
  type DisputedInvoice,
  getDebtorTimeline,
  TIMELINE_COMPACT,
  TIMELINE_LIMIT,
  type TimelineEntry,
  type UpcomingSend,
} from "./timeline.server";
