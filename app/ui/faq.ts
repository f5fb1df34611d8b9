/** The landing page's FAQ (docs/product-spec.md §1–§2: seven questions, in this order). */
export const landingFaq = [
  {
    q: "What services do you offer?",
    a: "Dunly sends reminder e-mails to the people and companies who owe you money, on a schedule you choose: once, daily or weekly, as a single reminder or an escalating sequence, in a polite, middle-ground or aggressive tone. You choose each debtor's tone and can change it at any time; the dashboard shows what comes in.",
  },
  {
    q: "How can I contact the team?",
    a: "Write to us by e-mail at hello@dunly.app and a person from the team will answer.",
  },
  {
    q: "How do I get started?",
    a: "Sign in with a magic link or your Google account, choose a pricing package, add your debtors and schedule your first reminder.",
  },
  {
    q: "How can I pay?",
    a: "By card, through Stripe's secure checkout. Every new account starts with a 14-day free trial of Medium, no card needed.",
  },
  {
    q: "Is my data safe?",
    a: "Yes. Your data and your debtors' data are never shared with anyone.",
  },
  {
    q: "How do I know the service works?",
    a: "Your dashboard tracks your progress: every reminder sent and the money coming in.",
  },
  {
    q: "How do I cancel?",
    a: "At any time in Settings → Subscription: 'Manage billing' opens Stripe's billing portal, where you cancel. Your plan lasts until the end of the month you paid for. To leave for good, Settings → Info has 'Export my data' (one JSON file) and 'Delete account'.",
  },
] as const;

/** The pricing page's collapsible FAQ. */
export const pricingFaq = [
  {
    q: "Can I change my plan later?",
    a: "Yes. In Settings → Subscription, 'Manage billing' opens Stripe's billing portal, where you switch plans. A smaller plan deletes nothing: what you have keeps running, and only new debtors or schedules over its limits are refused.",
  },
  {
    q: "How can I pay?",
    a: "By card, through Stripe's secure checkout. Every new account starts with a 14-day free trial of Medium, no card needed.",
  },
  {
    q: "How do I cancel?",
    a: "At any time in Settings → Subscription: 'Manage billing' opens Stripe's billing portal, where you cancel. Your plan lasts until the end of the month you paid for; after it, reminders hold until you choose a plan again. Nothing is deleted, unless you choose 'Delete account' in Settings → Info (export your data there first).",
  },
  {
    q: "Is my data safe?",
    a: "Yes. Your data and your debtors' data are never shared with anyone.",
  },
] as const;
