/** The accounting tools Dunly syncs with (decisions/060, 061), and their names as the user reads them. */
export type BooksProvider = "xero" | "quickbooks";

export const BOOKS_LABEL: Record<BooksProvider, string> = { xero: "Xero", quickbooks: "QuickBooks" };

/** Why a synced invoice is not edited or voided in Dunly. */
export const syncedInvoiceMessage = (provider: BooksProvider) =>
  `This invoice comes from ${BOOKS_LABEL[provider]}: change or void it there, and Dunly follows at the next sync.`;
