/** The landing page's FAQ (docs/product-spec.md §1–§2: seven questions, in this order). */
export const landingFaq = [
  {
    q: "What services do you offer?",
    a: "Dunly sends reminder e-mails to the people and companies who owe you money, on a schedule you choose: once, daily or weekly, as a single reminder or an escalating sequence, in a polite, middle-ground or aggressive tone. Machine learning chooses the best collection strategy for each debtor.",
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
    a: "We accept all major credit cards, Apple Pay and PayPal.",
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
    a: "You can cancel your subscription at any time on the user settings page.",
  },
] as const;

/** The pricing page's collapsible FAQ. */
export const pricingFaq = [
  {
    q: "Can I change my plan later?",
    a: "Yes. You can move to another plan at any time; the new price applies from your next billing period.",
  },
  {
    q: "How can I pay?",
    a: "We accept all major credit cards, Apple Pay and PayPal.",
  },
  {
    q: "How do I cancel?",
    a: "You can cancel your subscription at any time on the user settings page. Reminders already scheduled stop when the subscription ends.",
  },
  {
    q: "Is my data safe?",
    a: "Yes. Your data and your debtors' data are never shared with anyone.",
  },
] as const;
