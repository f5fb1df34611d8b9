import type * as v from "valibot";

/**
 * The object schema's message for a key that is missing altogether (a JSON payload or a form
 * post without the field): that field's own "required" message of docs/product-spec.md §5, not valibot's default.
 */
export function missingFieldMessage(messages: Record<string, string>) {
  return (issue: v.BaseIssue<unknown>) => {
    const key = issue.path?.at(-1)?.key;
    return (typeof key === "string" && messages[key]) || "Invalid input";
  };
}
