import type { StandInAction } from "./actions.server";

/** The stand-in's actions for debtors' payments and users' onboarding (Connect; decisions/017). */
export const CONNECT_STANDIN_ACTIONS: readonly StandInAction[] = [];
