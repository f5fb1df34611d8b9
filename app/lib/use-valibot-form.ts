import { useForm } from "@conform-to/react";
import { parseWithValibot } from "@conform-to/valibot";
import type { GenericSchema, InferOutput } from "valibot";

type FormOptions<Output extends Record<string, unknown>> = Parameters<typeof useForm<Output>>[0];

/**
 * conform's useForm, checked in the browser with the same valibot schema the action uses: on blur
 * (or on submit where `shouldValidate` says so), then again on every input.
 */
export function useValibotForm<Schema extends GenericSchema<unknown, Record<string, unknown>>>(
  schema: Schema,
  options: Omit<FormOptions<InferOutput<Schema>>, "onValidate" | "shouldRevalidate">,
) {
  return useForm<InferOutput<Schema>>({
    shouldValidate: "onBlur",
    ...options,
    onValidate: ({ formData }) => parseWithValibot(formData, { schema }),
    shouldRevalidate: "onInput",
  });
}
