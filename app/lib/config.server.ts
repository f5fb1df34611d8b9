import * as v from "valibot";

/**
 * The app Worker's configuration: the vars and secrets of wrangler.toml (and `wrangler secret put`),
 * validated once per request by `readConfig` in workers/app.ts. Keys keep the binding names, so a
 * setting has one name in wrangler.toml, the README, error messages and code. Bindings to resources
 * (DB, IMAGES, MAILER, SCHEDULES) stay on `env`.
 */

const APP_ENVS = ["development", "test", "production"] as const;

/** Which deployment this is; only production hides the dev mailbox and refuses default secrets. */
export const AppEnvSchema = v.picklist(APP_ENVS, `must be one of ${APP_ENVS.join(", ")}`);

/** wrangler.toml ships empty placeholders: an absent or empty value means "not configured". */
export function optionalValue<T extends v.GenericSchema<string, unknown>>(schema: T) {
  return v.optional(
    v.pipe(
      v.string("must be a string"),
      v.transform((value) => (value === "" ? undefined : value)),
      v.optional(schema),
    ),
  );
}

const text = v.string("must be a string");
const url = v.pipe(v.string("must be a string"), v.url("must be a URL"));

const AppConfigSchema = v.object({
  APP_ENV: AppEnvSchema,
  GOOGLE_CLIENT_ID: optionalValue(text),
  GOOGLE_CLIENT_SECRET: optionalValue(text),
  CHECKOUT_URL_SOFT: optionalValue(url),
  CHECKOUT_URL_MEDIUM: optionalValue(url),
  CHECKOUT_URL_AGGRESSIVE: optionalValue(url),
  IMAGE_URL_SECRET: optionalValue(text),
  SIGNIN_LIMIT_PER_CLIENT: optionalValue(
    v.pipe(v.string(), v.regex(/^[1-9]\d*$/, "must be a positive whole number"), v.transform(Number)),
  ),
});

export type AppConfig = v.InferOutput<typeof AppConfigSchema>;

const APP_SECRETS = ["GOOGLE_CLIENT_SECRET", "IMAGE_URL_SECRET"];

/** The validated configuration from the Worker's env; throws one Error naming every missing or bad value. */
export function readConfig(env: object): AppConfig {
  return parseConfig(AppConfigSchema, env, APP_SECRETS);
}

/**
 * Validates bindings against a configuration schema. The message names each bad value and what was
 * found, except for secrets, whose values never reach a log.
 */
export function parseConfig<S extends v.GenericSchema>(
  schema: S,
  env: object,
  secrets: readonly string[] = [],
): v.InferOutput<S> {
  const result = v.safeParse(schema, env, { abortPipeEarly: true });
  if (result.success) return result.output;
  const problems = result.issues.map((issue) => {
    const name = v.getDotPath(issue) ?? "(configuration)";
    if (issue.input === undefined) return `${name} is missing`;
    const found = secrets.includes(name) ? "" : ` (got ${JSON.stringify(issue.input)})`;
    return `${name} ${issue.message}${found}`;
  });
  throw new Error(`Configuration error: ${problems.join("; ")}`);
}
