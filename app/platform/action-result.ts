import type { SubmissionResult } from "@conform-to/react";

/**
 * What every form action answers, for fetchers and document posts alike: the intent it handled,
 * whether it worked, a message for the user, conform's reply (field errors and what the user
 * typed) and, for bulk actions, how many rows it reached.
 */
export interface ActionResult {
  intent: string;
  ok: boolean;
  message: string | null;
  result?: SubmissionResult<string[]>;
  count?: number;
  /** The record an add found already there (a debtor with the same e-mail): the form offers it. */
  existing?: { id: number; name: string };
}

/** True for an action's answer (as opposed to another route's action data or nothing). */
export function isActionResult(value: unknown): value is ActionResult {
  return typeof value === "object" && value !== null && "intent" in value && "ok" in value;
}
