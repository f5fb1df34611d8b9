import { useEffect, useRef, useState } from "react";
import { useActionData } from "react-router";
import { type ActionResult, isActionResult } from "~/platform/action-result";

let hydrated = false;

/** Called once the app has hydrated: forms mounted after that answer only to their own fetcher. */
export function markHydrated() {
  hydrated = true;
}

interface FetcherLike<T> {
  data?: T | undefined;
  state: "idle" | "loading" | "submitting";
}

/**
 * The answer to a form: its fetcher's data or, when the form was posted as a document (before
 * the page hydrated, or without JavaScript), the page's action data for one of the form's intents.
 * `onResult` runs once per answer, as soon as the action has answered (a delete's revalidation may
 * remove the form before the fetcher turns idle).
 */
export function useFormResult<T extends ActionResult>(
  fetcher: FetcherLike<T>,
  intents: readonly string[],
  onResult?: (result: T) => void,
): T | undefined {
  const actionData: unknown = useActionData();
  // Only a form that was on the page the document post rendered owns that page's action data.
  const [renderedWithPage] = useState(() => !hydrated);
  const fromDocument =
    renderedWithPage && isActionResult(actionData) && intents.includes(actionData.intent)
      ? (actionData as T)
      : undefined;
  const result = fetcher.data ?? fromDocument;
  const answered = fetcher.state === "submitting" ? undefined : result;

  const callback = useRef(onResult);
  useEffect(() => {
    callback.current = onResult;
  });
  const handled = useRef<T | undefined>(undefined);
  useEffect(() => {
    if (!answered || handled.current === answered) return;
    handled.current = answered;
    callback.current?.(answered);
  }, [answered]);

  return result;
}
