import * as v from "valibot";
import { type AccountCaps, DEFAULT_ACCOUNT_CAPS } from "~/domain/account-caps";

/**
 * The app Worker's configuration: the vars and secrets of wrangler.toml (and `wrangler secret put`),
 * read by `readConfig`, which workers/app.ts calls on every request but which validates once per env
 * object, so once per isolate. Keys keep the binding names, so a
 * setting has one name in wrangler.toml, the README, error messages and code. Bindings to resources
 * (DB, IMAGES, ARCHIVE, MAILER, SCHEDULES) stay on `env`.
 */

const APP_ENVS = ["development", "test", "production"] as const;

/** Which deployment this is; production (the committed wrangler.toml) hides the dev mailbox and needs every secret. */
export const AppEnvSchema = v.picklist(APP_ENVS, `must be one of ${APP_ENVS.join(", ")}`);

/** wrangler.toml leaves optional values empty: an absent or empty value means "not configured". */
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

/** An http(s) URL with nothing after the host and port (a trailing "/" is allowed). */
function isOrigin(value: string) {
  if (!URL.canParse(value)) return false;
  const u = new URL(value);
  return (
    (u.protocol === "https:" || u.protocol === "http:") &&
    u.pathname === "/" &&
    !u.search &&
    !u.hash &&
    !u.username &&
    !u.password
  );
}

/** The site's origin, e.g. https://dunly.app, normalized without the trailing slash. */
const origin = v.pipe(
  v.string("must be a string"),
  v.check(isOrigin, "must be an origin such as https://dunly.app (no path, query or credentials)"),
  v.transform((value) => new URL(value).origin),
);

const positiveInteger = v.pipe(
  v.string("must be a string"),
  v.regex(/^[1-9]\d{0,8}$/, "must be a positive whole number"),
  v.transform(Number),
);

const AppConfigFields = v.object({
  APP_ENV: AppEnvSchema,
  APP_ORIGIN: optionalValue(origin),
  GOOGLE_CLIENT_ID: optionalValue(text),
  GOOGLE_CLIENT_SECRET: optionalValue(text),
  IMAGE_URL_SECRET: optionalValue(text),
  OPT_OUT_SECRET: optionalValue(text),
  RESEND_WEBHOOK_SECRET: optionalValue(
    v.pipe(v.string(), v.regex(/^whsec_[A-Za-z0-9+/=]+$/, "must be Resend's signing secret (whsec_…)")),
  ),
  // Stripe (decisions/017): the platform's secret key, the signing
  // secrets of its two webhook endpoints (connected accounts' payments; Dunly's own billing) and
  // the price of each plan. Without the key, in production, nothing is bought or paid online
  // (Pay uses the user's payment link); in development and test the local stand-in answers.
  STRIPE_SECRET_KEY: optionalValue(
    v.pipe(
      v.string(),
      v.regex(/^(sk|rk)_(test|live)_[A-Za-z0-9]+$/, "must be a Stripe secret key (sk_live_… or sk_test_…)"),
    ),
  ),
  STRIPE_CONNECT_WEBHOOK_SECRET: optionalValue(
    v.pipe(v.string(), v.regex(/^whsec_[A-Za-z0-9]+$/, "must be a Stripe webhook signing secret (whsec_…)")),
  ),
  STRIPE_BILLING_WEBHOOK_SECRET: optionalValue(
    v.pipe(v.string(), v.regex(/^whsec_[A-Za-z0-9]+$/, "must be a Stripe webhook signing secret (whsec_…)")),
  ),
  STRIPE_PRICE_SOFT: optionalValue(
    v.pipe(v.string(), v.regex(/^price_[A-Za-z0-9]+$/, "must be a Stripe price id (price_…)")),
  ),
  STRIPE_PRICE_MEDIUM: optionalValue(
    v.pipe(v.string(), v.regex(/^price_[A-Za-z0-9]+$/, "must be a Stripe price id (price_…)")),
  ),
  STRIPE_PRICE_AGGRESSIVE: optionalValue(
    v.pipe(v.string(), v.regex(/^price_[A-Za-z0-9]+$/, "must be a Stripe price id (price_…)")),
  ),
  // Inbound replies (docs/decisions/020-inbound-replies.md): the domain whose mail Cloudflare Email
  // Routing delivers to the Worker's email() handler. Unset: reminders' Reply-To is the user's own
  // address and the handler refuses all mail. Reply addresses are signed with OPT_OUT_SECRET.
  INBOUND_DOMAIN: optionalValue(
    v.pipe(
      v.string(),
      v.regex(
        /^(?=.{1,200}$)([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z0-9-]{2,}$/i,
        "must be a domain such as reply.dunly.app",
      ),
      v.toLowerCase(),
    ),
  ),
  // Accounting sync (decisions/060): the key that encrypts the tools' tokens at rest (32 random
  // bytes, base64) and Xero's OAuth app. Without the key, or in production without XERO_CLIENT_ID,
  // Xero is unavailable; in development and test without a client id the local stand-in answers.
  ACCOUNTING_TOKEN_KEY: optionalValue(
    v.pipe(v.string(), v.regex(/^[A-Za-z0-9+/]{43}=$/, "must be 32 random bytes in base64 (openssl rand -base64 32)")),
  ),
  XERO_CLIENT_ID: optionalValue(text),
  XERO_CLIENT_SECRET: optionalValue(text),
  // Xero's webhook signing key (decisions/062): /webhooks/xero verifies x-xero-signature with it.
  // Without it (and not on the local stand-in) the endpoint answers 404; the 15-minute sync still runs.
  XERO_WEBHOOK_KEY: optionalValue(text),
  // QuickBooks Online (decisions/061): Intuit's OAuth app, which of its environments the app uses
  // ('production' unless 'sandbox'), and the webhooks' verifier token. In production without
  // QUICKBOOKS_CLIENT_ID QuickBooks is unavailable; in development and test the stand-in answers.
  QUICKBOOKS_CLIENT_ID: optionalValue(text),
  QUICKBOOKS_CLIENT_SECRET: optionalValue(text),
  QUICKBOOKS_ENVIRONMENT: optionalValue(v.picklist(["sandbox", "production"])),
  QUICKBOOKS_WEBHOOK_VERIFIER: optionalValue(text),
  // Text messages through Twilio (decisions/068): the account that sends, its auth token (which also
  // signs Twilio's callbacks) and the Messaging Service that carries every text (STOP/HELP by the
  // carriers' rules). All three or none. Without them, in production the text channel is off and
  // every send fails closed; in development and test the dev outbox (/dev/texts) stands in.
  TWILIO_ACCOUNT_SID: optionalValue(
    v.pipe(v.string(), v.regex(/^AC[0-9a-f]{32}$/, "must be a Twilio account SID (AC followed by 32 hex digits)")),
  ),
  TWILIO_AUTH_TOKEN: optionalValue(
    v.pipe(v.string(), v.regex(/^[0-9a-f]{32}$/, "must be a Twilio auth token (32 hex digits)")),
  ),
  TWILIO_MESSAGING_SERVICE_SID: optionalValue(
    v.pipe(
      v.string(),
      v.regex(/^MG[0-9a-f]{32}$/, "must be a Twilio Messaging Service SID (MG followed by 32 hex digits)"),
    ),
  ),
  SIGNIN_LIMIT_PER_CLIENT: optionalValue(positiveInteger),
  ACCOUNT_MAX_DEBTORS: optionalValue(positiveInteger),
  ACCOUNT_MAX_ORGANIZATIONS: optionalValue(positiveInteger),
  ACCOUNT_MAX_SCHEDULES: optionalValue(positiveInteger),
  MAIL_SENDS_PER_SECOND: optionalValue(positiveInteger),
});

const REQUIRED_IN_PRODUCTION = "is missing (required when APP_ENV is production)";

type ConfigFields = v.InferOutput<typeof AppConfigFields>;
type RequiredInProduction = "APP_ORIGIN" | "IMAGE_URL_SECRET" | "OPT_OUT_SECRET";
type Paths = [["APP_ENV"], [RequiredInProduction]];

/** A rule across fields: `key` must be set when APP_ENV is production (its issue names `key`). */
function requiredInProduction(key: RequiredInProduction) {
  const check = v.partialCheck<ConfigFields, Paths, Pick<ConfigFields, "APP_ENV" | RequiredInProduction>, string>(
    [["APP_ENV"], [key]],
    (input) => input.APP_ENV !== "production" || input[key] !== undefined,
    REQUIRED_IN_PRODUCTION,
  );
  return v.forward(check, [key]);
}

type StripeDependent =
  | "STRIPE_CONNECT_WEBHOOK_SECRET"
  | "STRIPE_BILLING_WEBHOOK_SECRET"
  | "STRIPE_PRICE_SOFT"
  | "STRIPE_PRICE_MEDIUM"
  | "STRIPE_PRICE_AGGRESSIVE";

/**
 * A rule across fields: with a Stripe key, `key` must be set too, in every environment: a key
 * without its webhook secret would take payments that nothing can confirm.
 */
function requiredWithStripe(key: StripeDependent) {
  const check = v.partialCheck<
    ConfigFields,
    [["STRIPE_SECRET_KEY"], [StripeDependent]],
    Pick<ConfigFields, "STRIPE_SECRET_KEY" | StripeDependent>,
    string
  >(
    [["STRIPE_SECRET_KEY"], [key]],
    (input) => input.STRIPE_SECRET_KEY === undefined || input[key] !== undefined,
    "is missing (required when STRIPE_SECRET_KEY is set)",
  );
  return v.forward(check, [key]);
}

type TwilioDependent = "TWILIO_AUTH_TOKEN" | "TWILIO_MESSAGING_SERVICE_SID";

/** A rule across fields: Twilio's three settings come together (a half-set account would send unsigned or nowhere). */
function requiredWithTwilio(key: TwilioDependent) {
  const check = v.partialCheck<
    ConfigFields,
    [["TWILIO_ACCOUNT_SID"], [TwilioDependent]],
    Pick<ConfigFields, "TWILIO_ACCOUNT_SID" | TwilioDependent>,
    string
  >(
    [["TWILIO_ACCOUNT_SID"], [key]],
    (input) => input.TWILIO_ACCOUNT_SID === undefined || input[key] !== undefined,
    "is missing (required when TWILIO_ACCOUNT_SID is set)",
  );
  return v.forward(check, [key]);
}

/** Production fails closed: no request is served without its origin and its signing secrets. */
const AppConfigSchema = v.pipe(
  AppConfigFields,
  requiredInProduction("APP_ORIGIN"),
  requiredInProduction("IMAGE_URL_SECRET"),
  requiredInProduction("OPT_OUT_SECRET"),
  requiredWithStripe("STRIPE_CONNECT_WEBHOOK_SECRET"),
  requiredWithStripe("STRIPE_BILLING_WEBHOOK_SECRET"),
  requiredWithStripe("STRIPE_PRICE_SOFT"),
  requiredWithStripe("STRIPE_PRICE_MEDIUM"),
  requiredWithStripe("STRIPE_PRICE_AGGRESSIVE"),
  v.forward(
    v.partialCheck(
      [["XERO_CLIENT_ID"], ["XERO_CLIENT_SECRET"]],
      (input: { XERO_CLIENT_ID?: string; XERO_CLIENT_SECRET?: string }) =>
        input.XERO_CLIENT_ID === undefined || input.XERO_CLIENT_SECRET !== undefined,
      "is missing (required with XERO_CLIENT_ID)",
    ),
    ["XERO_CLIENT_SECRET"],
  ),
  v.forward(
    v.partialCheck(
      [["QUICKBOOKS_CLIENT_ID"], ["QUICKBOOKS_CLIENT_SECRET"]],
      (input: { QUICKBOOKS_CLIENT_ID?: string; QUICKBOOKS_CLIENT_SECRET?: string }) =>
        input.QUICKBOOKS_CLIENT_ID === undefined || input.QUICKBOOKS_CLIENT_SECRET !== undefined,
      "is missing (required with QUICKBOOKS_CLIENT_ID)",
    ),
    ["QUICKBOOKS_CLIENT_SECRET"],
  ),
  requiredWithTwilio("TWILIO_AUTH_TOKEN"),
  requiredWithTwilio("TWILIO_MESSAGING_SERVICE_SID"),
  v.forward(
    v.partialCheck(
      [["TWILIO_ACCOUNT_SID"], ["TWILIO_AUTH_TOKEN"], ["TWILIO_MESSAGING_SERVICE_SID"]],
      (input: { TWILIO_ACCOUNT_SID?: string; TWILIO_AUTH_TOKEN?: string; TWILIO_MESSAGING_SERVICE_SID?: string }) =>
        input.TWILIO_ACCOUNT_SID !== undefined ||
        (input.TWILIO_AUTH_TOKEN === undefined && input.TWILIO_MESSAGING_SERVICE_SID === undefined),
      "is missing (required with TWILIO_AUTH_TOKEN or TWILIO_MESSAGING_SERVICE_SID)",
    ),
    ["TWILIO_ACCOUNT_SID"],
  ),
);

export type AppConfig = v.InferOutput<typeof AppConfigSchema>;

const APP_SECRETS = [
  "GOOGLE_CLIENT_SECRET",
  "IMAGE_URL_SECRET",
  "OPT_OUT_SECRET",
  "RESEND_WEBHOOK_SECRET",
  "STRIPE_SECRET_KEY",
  "STRIPE_CONNECT_WEBHOOK_SECRET",
  "STRIPE_BILLING_WEBHOOK_SECRET",
  "ACCOUNTING_TOKEN_KEY",
  "XERO_CLIENT_SECRET",
  "XERO_WEBHOOK_KEY",
  "QUICKBOOKS_CLIENT_SECRET",
  "QUICKBOOKS_WEBHOOK_VERIFIER",
  "TWILIO_AUTH_TOKEN",
];

/**
 * The validated configuration from the Worker's env; throws one Error naming every missing or bad
 * value. Kept per env object once it validates: an isolate's bindings do not change while it runs,
 * and validating them on every request was a tenth of a trivial request's time. A bad
 * configuration is never kept, so every request fails with the same clear error.
 */
export function readConfig(env: object): AppConfig {
  const known = validated.get(env);
  if (known) return known;
  const config = parseConfig(AppConfigSchema, env, APP_SECRETS);
  validated.set(env, config);
  return config;
}
const validated = new WeakMap<object, AppConfig>();

/** Resend's default: 2 requests per second per team. */
export const DEFAULT_MAIL_SENDS_PER_SECOND = 2;

/** How many reminders per second the mail queue's consumer sends (MAIL_SENDS_PER_SECOND). */
export function mailSendsPerSecond(config: Pick<AppConfig, "MAIL_SENDS_PER_SECOND">): number {
  return config.MAIL_SENDS_PER_SECOND ?? DEFAULT_MAIL_SENDS_PER_SECOND;
}

/** The per-account caps (app/domain/account-caps.ts): ACCOUNT_MAX_* where set, else the defaults. */
export function accountCaps(
  config: Pick<AppConfig, "ACCOUNT_MAX_DEBTORS" | "ACCOUNT_MAX_ORGANIZATIONS" | "ACCOUNT_MAX_SCHEDULES">,
): AccountCaps {
  return {
    debtors: config.ACCOUNT_MAX_DEBTORS ?? DEFAULT_ACCOUNT_CAPS.debtors,
    organizations: config.ACCOUNT_MAX_ORGANIZATIONS ?? DEFAULT_ACCOUNT_CAPS.organizations,
    schedules: config.ACCOUNT_MAX_SCHEDULES ?? DEFAULT_ACCOUNT_CAPS.schedules,
  };
}

/**
 * The origin of absolute URLs in e-mails and OAuth: APP_ORIGIN, never the request's Host header,
 * which a client chooses. Only development and test without APP_ORIGIN use the request's origin.
 */
export function appOrigin(config: Pick<AppConfig, "APP_ENV" | "APP_ORIGIN">, requestUrl: string | URL): string {
  if (config.APP_ORIGIN) return config.APP_ORIGIN;
  if (config.APP_ENV === "production") {
    throw new Error(`Configuration error: APP_ORIGIN ${REQUIRED_IN_PRODUCTION}`);
  }
  return new URL(requestUrl).origin;
}

/** Where `npm run dev` serves the app (Vite's default port). */
const DEV_ORIGIN = "http://localhost:5173";

/**
 * The origin of links made with no request at hand (the opt-out link the reminder engine puts in
 * every e-mail): APP_ORIGIN; in development and test without it, the dev server's origin.
 */
export function linkOrigin(config: Pick<AppConfig, "APP_ENV" | "APP_ORIGIN">): string {
  return appOrigin(config, DEV_ORIGIN);
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
  // Every field's pipe has one check, so each field gets one message; rules across fields still run.
  const result = v.safeParse(schema, env);
  if (result.success) return result.output;
  const problems = result.issues.map((issue) => {
    const name = v.getDotPath(issue) ?? "(configuration)";
    // A rule across fields: its input is the whole env, which must not reach a log.
    if (issue.type === "partial_check") return `${name} ${issue.message}`;
    if (issue.input === undefined) return `${name} is missing`;
    const found = secrets.includes(name) ? "" : ` (got ${JSON.stringify(issue.input)})`;
    return `${name} ${issue.message}${found}`;
  });
  throw new Error(`Configuration error: ${problems.join("; ")}`);
}
