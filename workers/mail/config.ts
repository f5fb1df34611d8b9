import * as v from "valibot";
import { AppEnvSchema, optionalValue, parseConfig } from "../../app/lib/config.server";

/** The mail Worker's configuration (workers/mail/wrangler.toml and its secret), read once per RPC call. */
const MailConfigSchema = v.object({
  APP_ENV: AppEnvSchema,
  /** The fixed From address; the sender's name is only its display name. */
  MAIL_FROM_ADDRESS: v.pipe(v.string("must be a string"), v.email("must be an e-mail address")),
  RESEND_BASE_URL: v.pipe(v.string("must be a string"), v.url("must be a URL")),
  RESEND_API_KEY: optionalValue(v.string()),
});

export type MailConfig = v.InferOutput<typeof MailConfigSchema>;

/** The validated configuration from the mail Worker's env; throws one Error naming every bad value. */
export function readMailConfig(env: object): MailConfig {
  return parseConfig(MailConfigSchema, env, ["RESEND_API_KEY"]);
}
