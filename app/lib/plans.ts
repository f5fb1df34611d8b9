/** The three plans of the pricing page (docs/product-spec.md §1, §9). Checkout URLs come from configuration. */
export const plans = [
  {
    id: "soft",
    name: "The soft approach",
    tagline: "polite",
    price: 3,
    features: ["Weekly reminders", "Over 10 polite templates", "Up to 3 debtors"],
    checkoutVar: "CHECKOUT_URL_SOFT",
    popular: false,
  },
  {
    id: "medium",
    name: "Medium",
    tagline: "most popular",
    price: 5,
    features: ["Up to 5 reminders per week", "Over 20 templates", "Up to 5 debtors"],
    checkoutVar: "CHECKOUT_URL_MEDIUM",
    popular: true,
  },
  {
    id: "aggressive",
    name: "Aggressive",
    tagline: "all out war",
    price: 10,
    features: ["Daily and omnichannel reminders", "Up to 10 debtors"],
    checkoutVar: "CHECKOUT_URL_AGGRESSIVE",
    popular: false,
  },
] as const;

/** The display name of a plan id ("medium" → "Medium"); an unknown id is shown as it is. */
export function planName(id: string): string {
  return plans.find((p) => p.id === id)?.name ?? id;
}
