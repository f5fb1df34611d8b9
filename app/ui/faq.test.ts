import { describe, expect, it } from "vitest";
import { landingFaq, pricingFaq } from "./faq";

// The FAQs say only what Dunly does.
describe("the FAQs", () => {
  const answers = [...landingFaq, ...pricingFaq].map((f) => f.a);

  it("promise no feature Dunly lacks: no machine learning, no PayPal or Apple Pay", () => {
    for (const answer of answers) expect(answer).not.toMatch(/machine learning|paypal|apple pay/i);
  });

  it("say the user chooses each debtor's tone and that payment is by card through Stripe", () => {
    expect(landingFaq[0].a).toContain("You choose each debtor's tone");
    for (const faq of [landingFaq, pricingFaq]) {
      expect(faq.find((f) => f.q === "How can I pay?")?.a).toMatch(/^By card, through Stripe's secure checkout\./);
    }
  });
});
