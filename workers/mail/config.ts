import * as v from "valibot";
import { AppEnvSchema, optionalValue, parseConfig } from "../../app/platform/config.server";

/** The mail Worker's configuration (workers/mail/wrangler.toml and its secret), read once per RPC call. */
const MailConfigSchema = v.object({
  APP_ENV: AppEnvSchema,
  /** The fixed From address; the sender's name is only its display name. */
  MAIL_FROM_ADDRESS: v.pipe(v.string("must be a string"), v.email("must be an e-mail address")),
  RESEND_BASE_URL: v.pipe(v.string("must be a string"), v.url("must be a URL")),
  RESEND_API_KEY: optionalValue(v.string()),
  /**
   * How long one request to the provider may take before it is abandoned as unanswered (seconds;
   * default PROVIDER_TIMEOUT_SECONDS). Not in wrangler.toml: the tests set a short one.
   */
  RESEND_TIMEOUT_SECONDS: optionalValue(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,3}(\.\d+)?$/, "must be a number of seconds"),
      v.transform(Number),
      v.minValue(0.1, "must be at least 0.1"),
      v.maxValue(120, "must be at most 120"),
    ),
  ),
});

/** The provider's answer is awaited this long by default (Resend answers a batch of 100 in about a second). */
export const PROVIDER_TIMEOUT_SECONDS = 10;

export type MailConfig = v.InferOutput<typeof MailConfigSchema>;

/** The validated configuration from the mail Worker's env; throws one Error naming every bad value. */
export function readMailConfig(env: object): MailConfig {
  return parseConfig(MailConfigSchema, env, ["RESEND_API_KEY", "RESEND_TIMEOUT_SECONDS"]);
}
