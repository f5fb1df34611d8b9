import { describe, expect, it } from "vitest";
import { get, markup, visibleText } from "./helpers";

/**
 * Pages a link in an e-mail opens, checked through HTTP alone (moved from the end-to-end suite,
 * which needed no browser for them): a debtor's link that is not valid says so with 404 and offers
 * no button; the sign-in link's page keeps its token out of the Referer and out of frames.
 */

const FORGED_TOKEN = "0123456789abcdef0123456789abcdef.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

/** A <button> in the HTML whose content contains `label`. */
const buttonWith = (label: string) => new RegExp(`<button\\b[^>]*>(?:(?!</button>)[\\s\\S])*${label}`);

describe("a debtor's link that is not valid", () => {
  it("the opt-out page: 404, 'This link is no longer valid.' as an alert, no Stop reminders button", async () => {
    const res = await get(`/u/${FORGED_TOKEN}`);
    expect(res.status).toBe(404);
    const html = await markup(res);
    expect(html).toMatch(/<p[^>]* role="alert"[^>]*>\s*This link is no longer valid\.\s*<\/p>/);
    expect(html).not.toMatch(buttonWith("Stop reminders"));
  });

  it("the \"I've paid\" page: 404, 'This link is no longer valid.' as an alert, no Yes, I have paid button", async () => {
    const res = await get(`/p/${FORGED_TOKEN}`);
    expect(res.status).toBe(404);
    const html = await markup(res);
    expect(html).toMatch(/<p[^>]* role="alert"[^>]*>\s*This link is no longer valid\.\s*<\/p>/);
    expect(html).not.toMatch(buttonWith("Yes, I have paid"));
  });

  it("the button check above finds a button the app renders, so it can fail", async () => {
    expect(await markup(await get("/"))).toMatch(buttonWith("Get magic link"));
  });
});

describe("the sign-in link's page", () => {
  it("sends the origin only as referrer (never its token) and may not be framed, also for a token that is not valid", async () => {
    const res = await get("/auth/verify?token=abc");
    expect(res.headers.get("Referrer-Policy")).toBe("strict-origin");
    expect(res.headers.get("Content-Security-Policy")).toContain("frame-ancestors 'none'");
    expect(await visibleText(res)).toContain("invalid, was already used, or has expired");
  });
});
