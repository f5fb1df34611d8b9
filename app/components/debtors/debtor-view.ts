import type { DebtorRow } from "~/debtors/index.server";

/** A debtor as the table and its modals show it: the list query's row. */
export type DebtorView = DebtorRow;
