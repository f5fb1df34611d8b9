import type { StandInAction } from "./actions.server";

/** The stand-in's actions for Dunly's own plans: subscribing, the billing portal (decisions/017). */
export const BILLING_STANDIN_ACTIONS: readonly StandInAction[] = [];
