import type { Db } from "~/db/client.server";
import type { OptOutTarget } from "~/links/index.server";
import { type AppConfig, linkOrigin } from "~/platform/config.server";
import { stripeSetup } from "~/stripe/index.server";
import { accrueAfterWrite } from "../charges/accrual.server";
import { type CheckoutOutcome, type PayTarget, startCheckout } from "./checkout.server";
import { chargeableAccount } from "./stripe-account.server";

/**
 * Pay from the debtor's page or a reminder's Pay link (decisions/018): with Stripe set up and the
 * user's connected account able to take charges, a Checkout Session for what is owed; otherwise
 * null, and the caller uses the sender's payment page as before.
 */
export async function payOnline(
  env: Env,
  config: AppConfig,
  db: Db,
  target: OptOutTarget,
  token: string,
  pay: PayTarget,
  now: number,
): Promise<CheckoutOutcome | null> {
  const stripe = stripeSetup(config, env);
  if (!stripe) return null;
  const account = await chargeableAccount(db, target.ownerId);
  if (!account) return null;
  const portalUrl = `${linkOrigin(config)}/d/${token}`;
  // The late-payment charges through today (decisions/065): the session asks for what is owed now.
  await accrueAfterWrite({ db, ownerId: target.ownerId, now }, [target.debtorId]);
  return startCheckout(
    db,
    stripe,
    account,
    {
      id: target.debtorId,
      ownerId: target.ownerId,
      email: target.email,
      language: target.language,
      locale: target.locale,
    },
    pay,
    portalUrl,
    now,
  );
}

/** Whether Pay on this user's debtors' pages and reminders goes to Checkout (see payOnline). */
export async function paysOnline(env: Env, config: AppConfig, db: Db, ownerId: string): Promise<boolean> {
  if (!stripeSetup(config, env)) return false;
  return (await chargeableAccount(db, ownerId)) !== undefined;
}
