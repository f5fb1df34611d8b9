import { flatten, safeParse } from "valibot";
import { SignInSchema } from "~/schemas/auth";

/**
 * The sign-in form's check in the browser, with the schema the action uses: the address's errors,
 * or undefined. Its own chunk (valibot and the schemas): sign-in-form.tsx loads it on first use.
 */
export function emailErrors(form: HTMLFormElement): string[] | undefined {
  const result = safeParse(SignInSchema, Object.fromEntries(new FormData(form)));
  return result.success ? undefined : flatten<typeof SignInSchema>(result.issues).nested?.email;
}
