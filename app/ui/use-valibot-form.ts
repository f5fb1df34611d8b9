import { useForm } from "@conform-to/react";
import { parseWithValibot } from "@conform-to/valibot";
import type { GenericSchema, InferOutput } from "valibot";

type FormOptions<Output extends Record<string, unknown>> = Parameters<typeof useForm<Output>>[0];

/**
 * conform's useForm, checked in the browser with the same valibot schema the action uses: on
 * submit, then again on every input. Not on blur: dialogs and inline forms open on
 * their first field, and leaving it empty for the Save button would show its error first, moving
 * the button from under the pointer before the click lands; and a field removed while focused
 * (a form closed with Escape) would validate a form that is no longer on the page.
 */
export function useValibotForm<Schema extends GenericSchema<unknown, Record<string, unknown>>>(
  schema: Schema,
  options: Omit<FormOptions<InferOutput<Schema>>, "onValidate" | "shouldRevalidate">,
) {
  return useForm<InferOutput<Schema>>({
    shouldValidate: "onSubmit",
    ...options,
    onValidate: ({ formData }) => parseWithValibot(formData, { schema }),
    shouldRevalidate: "onInput",
  });
}
