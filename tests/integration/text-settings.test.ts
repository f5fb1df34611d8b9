import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { saveTextSettingsStatement, textSettingsOf } from "~/db/text-allowance";
import { DEFAULT_TEXT_TEMPLATE, renderText, TEXT_STOP_LINE, textTemplateProblem } from "~/domain/text-message";
import { LONGEST_SAMPLE_FACTS, textCountLine, textPreview } from "~/domain/text-preview";
import { getAccountCadence } from "~/reminders/index.server";
import { TEXT_INTENTS } from "~/schemas/intents";
import { formAction, replyErrors } from "./data-helpers";
import { db, makeSignedInUser } from "./fixtures";
import { get, postForm, sessionCookieName, visibleText } from "./helpers";

/**
 * Settings → Text messages' second form, the words a text step sends (decisions/070), and Settings
 * → Cadence's channel per step, through the pages as a browser posts them.
 */

async function signedIn() {
  const user = await makeSignedInUser();
  return { ...user, cookie: `${sessionCookieName()}=${user.token}` };
}

const storedTemplate = async (ownerId: string) =>
  (
    await env.DB.prepare("SELECT template FROM text_settings WHERE owner_id = ?")
      .bind(ownerId)
      .first<{ template: string | null }>()
  )?.template;

/** A textarea's value as the page renders it (React writes it as the element's text). */
function textareaValue(html: string, name: string): string | null {
  const match = new RegExp(`<textarea[^>]*name="${name}"[^>]*>([\\s\\S]*?)</textarea>`).exec(html);
  return match ? (match[1] ?? "") : null;
}
const decode = (s: string) =>
  s
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

describe("Settings → Text messages: the text's words", () => {
  it("shows the default words, what each placeholder becomes, the STOP rule and the longest text as it would be sent", async () => {
    const user = await signedIn();
    const res = await get("/iam/texts", { cookie: user.cookie });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(decode(textareaValue(html, "body") ?? "")).toBe(DEFAULT_TEXT_TEMPLATE);
    const text = decode(html);
    expect(text).toContain("Your text message");
    expect(text).toContain(`"${TEXT_STOP_LINE}" is always added at the end`);
    expect(text).toContain("Where the oldest invoice stands");
    const sent = renderText(DEFAULT_TEXT_TEMPLATE, LONGEST_SAMPLE_FACTS);
    const preview = textPreview(DEFAULT_TEXT_TEMPLATE);
    if (!sent.ok || !preview.ok) throw new Error("the default template renders");
    expect(text).toContain(sent.body);
    expect(text).toContain(textCountLine(preview));
    // Nothing to restore while the words are the default.
    expect(text).not.toContain("Restore the default words");
  });

  it("saves good words, refuses a missing {link} and a text too long with the words kept, restores the default, and touches no other account", async () => {
    const user = await signedIn();
    const other = await signedIn();
    const theirs = "{business}: {amount} {status}. {link}";
    expect(
      (await formAction("/iam/texts", { intent: TEXT_INTENTS.saveTemplate, body: theirs }, other.cookie)).status,
    ).toBe(200);
    // The channel and countries are saved apart and stay as they are.
    await saveTextSettingsStatement(db(), user.id, { enabled: true, countries: ["GB"] }, Date.now()).run();

    const good = "Hi {name}, {amount} {status}. Pay or answer here: {link}";
    const saved = await formAction(
      "/iam/texts",
      { intent: TEXT_INTENTS.saveTemplate, body: `  ${good}\r\n` },
      user.cookie,
    );
    expect(saved.status, JSON.stringify(saved.data)).toBe(200);
    expect(saved.data.message).toContain("Your words are saved");
    expect(await textSettingsOf(db(), user.id)).toEqual({ enabled: true, countries: ["GB"], template: good });
    const page = await (await get("/iam/texts", { cookie: user.cookie })).text();
    expect(decode(textareaValue(page, "body") ?? "")).toBe(good);
    const rendered = renderText(good, LONGEST_SAMPLE_FACTS);
    expect(rendered.ok && decode(page)).toContain(rendered.ok ? rendered.body : "");
    expect(decode(page)).toContain("Restore the default words");

    // No {link}: the field's error, the words as typed, nothing saved (the page's fetcher and a plain post).
    const noLink = "Hi {name}, {amount} {status}. Call us!";
    const refused = await formAction("/iam/texts", { intent: TEXT_INTENTS.saveTemplate, body: noLink }, user.cookie);
    expect(refused.status).toBe(400);
    expect(replyErrors(refused.data).body).toEqual([textTemplateProblem(noLink)]);
    const plain = await postForm(
      "/iam/texts",
      { intent: TEXT_INTENTS.saveTemplate, body: noLink },
      { cookie: user.cookie },
    );
    expect(plain.status).toBe(400);
    const plainHtml = await plain.text();
    expect(decode(textareaValue(plainHtml, "body") ?? "")).toBe(noLink);
    expect(decode(plainHtml)).toContain("A text must say {link}");

    // Too long once filled in: how much to cut, the words kept.
    const long = `${"Please settle this as soon as you possibly can. ".repeat(5)}{amount} {status} {link}`;
    const tooLong = await postForm(
      "/iam/texts",
      { intent: TEXT_INTENTS.saveTemplate, body: long },
      { cookie: user.cookie },
    );
    expect(tooLong.status).toBe(400);
    const longHtml = decode(await tooLong.text());
    expect(decode(textareaValue(longHtml, "body") ?? "")).toBe(long);
    expect(longHtml).toContain(textTemplateProblem(long) ?? "a problem");
    expect(longHtml).toContain("Shorten it by");
    expect(await textSettingsOf(db(), user.id)).toMatchObject({ template: good });

    // Without JavaScript, "Show the preview" renders the words as typed and saves nothing.
    const tried = "{amount} {status}: {link}";
    const previewed = await postForm(
      "/iam/texts",
      { intent: TEXT_INTENTS.previewTemplate, body: tried },
      { cookie: user.cookie },
    );
    expect(previewed.status).toBe(200);
    const previewHtml = decode(await previewed.text());
    const triedText = renderText(tried, LONGEST_SAMPLE_FACTS);
    expect(previewHtml).toContain(triedText.ok ? triedText.body : "not rendered");
    expect(previewHtml).toContain("They are not saved yet");
    expect(await textSettingsOf(db(), user.id)).toMatchObject({ template: good });

    // The default's own words are stored as the default; "Restore the default words" too.
    await formAction("/iam/texts", { intent: TEXT_INTENTS.saveTemplate, body: DEFAULT_TEXT_TEMPLATE }, user.cookie);
    expect(await storedTemplate(user.id)).toBeNull();
    await formAction("/iam/texts", { intent: TEXT_INTENTS.saveTemplate, body: good }, user.cookie);
    const restored = await formAction("/iam/texts", { intent: TEXT_INTENTS.defaultTemplate }, user.cookie);
    expect(restored.status).toBe(200);
    expect(await storedTemplate(user.id)).toBeNull();
    expect(await textSettingsOf(db(), user.id)).toEqual({
      enabled: true,
      countries: ["GB"],
      template: DEFAULT_TEXT_TEMPLATE,
    });

    // The other account's words and settings are its own.
    expect(await textSettingsOf(db(), other.id)).toEqual({ enabled: false, countries: [], template: theirs });
  });
});

describe("Settings → Cadence: each step's channel", () => {
  const form = {
    intent: "cadence-save",
    cadence_steps: "-3, 0, 7, 14",
    send_hour: "10",
    after_last: "end",
    voice_channel_7: "text",
    voice_channel_14: "both",
    voice_channel_0: "email",
  };

  it("is offered only with texts on, saved, shown in the steps' summary and read back; off, the choice is kept and the steps go by e-mail", async () => {
    const user = await signedIn();
    const other = await signedIn();
    // Off: no channel to choose, a note that leads to Settings → Text messages.
    const off = await (await get("/iam/cadence", { cookie: user.cookie })).text();
    expect(off).not.toContain('name="voice_channel_');
    expect(await visibleText(new Response(off))).toContain("Every step goes by e-mail: text messages are off.");
    expect(off).toContain('href="/iam/texts"');

    await saveTextSettingsStatement(db(), user.id, { enabled: true, countries: ["GB"] }, Date.now()).run();
    const on = await (await get("/iam/cadence", { cookie: user.cookie })).text();
    expect(on).toContain('<select name="voice_channel_-3"');
    expect(on).toContain("E-mail and text message");
    expect(on).not.toContain("text messages are off");

    // A value the list does not offer is refused and nothing is saved.
    const hostile = await postForm("/iam/cadence", { ...form, voice_channel_7: "sms" }, { cookie: user.cookie });
    expect(hostile.status).toBe(400);
    expect(await hostile.text()).toContain("Choose each step&#x27;s template, tone and channel");
    expect((await getAccountCadence(db(), user.id)).cadence.voices).toBeUndefined();

    const saved = await postForm("/iam/cadence", form, { cookie: user.cookie });
    expect(saved.status).toBe(200);
    expect((await getAccountCadence(db(), user.id)).cadence.voices).toEqual({
      7: { template: null, tone: null, channel: "text" },
      14: { template: null, tone: null, channel: "both" },
    });
    const stored = await env.DB.prepare("SELECT cadence_voices FROM account_cadences WHERE owner_id = ?")
      .bind(user.id)
      .first<{ cadence_voices: string }>();
    expect(stored?.cadence_voices).toBe("7:::text,14:::both");

    // Read back: the summary says it, each select shows what was saved.
    const page = await (await get("/iam/cadence", { cookie: user.cookie })).text();
    expect(chips(page)).toEqual([
      expect.stringMatching(/^3 days before: [A-Za-z ]+$/),
      expect.stringMatching(/^Due date: [A-Za-z ]+$/),
      expect.stringMatching(/^7 days after: [A-Za-z ]+ · Text$/),
      expect.stringMatching(/^14 days after: [A-Za-z ]+ · E-mail and text$/),
    ]);
    expect(selected(page, "voice_channel_7")).toBe("text");
    expect(selected(page, "voice_channel_14")).toBe("both");
    expect(selected(page, "voice_channel_0")).toBe("email");

    // Texts off again: nothing to choose, the summary says no text, and saving keeps the choices
    // for when they are back on (the steps go by e-mail meanwhile).
    await saveTextSettingsStatement(db(), user.id, { enabled: false, countries: ["GB"] }, Date.now()).run();
    const offAgain = await (await get("/iam/cadence", { cookie: user.cookie })).text();
    expect(offAgain).not.toContain('<select name="voice_channel_');
    const offText = await visibleText(new Response(offAgain));
    expect(chips(offAgain).filter((c) => c.includes("·"))).toEqual([]);
    expect(offText).toContain("the steps you set to a text keep that choice");
    const hidden = [...offAgain.matchAll(/<input type="hidden" name="(voice_channel_[^"]+)" value="([^"]+)"/g)].map(
      (m) => [m[1], m[2]],
    );
    expect(hidden).toEqual([
      ["voice_channel_7", "text"],
      ["voice_channel_14", "both"],
    ]);
    const resaved = await postForm(
      "/iam/cadence",
      {
        intent: "cadence-save",
        cadence_steps: "-3, 0, 7, 14",
        send_hour: "11",
        after_last: "end",
        ...Object.fromEntries(hidden),
      },
      { cookie: user.cookie },
    );
    expect(resaved.status).toBe(200);
    expect((await getAccountCadence(db(), user.id)).cadence).toMatchObject({
      hour: 11,
      voices: { 7: { channel: "text" }, 14: { channel: "both" } },
    });

    // Another account's cadence is untouched.
    expect((await getAccountCadence(db(), other.id)).cadence.voices).toBeUndefined();
  });

  it("offers no channel on a plan without text messages, and says so, whatever the texts switch says", async () => {
    const user = await signedIn();
    await env.DB.prepare("UPDATE users SET plan = 'soft', subscription_status = 'active' WHERE id = ?")
      .bind(user.id)
      .run();
    await saveTextSettingsStatement(db(), user.id, { enabled: true, countries: ["GB"] }, Date.now()).run();
    const page = await (await get("/iam/cadence", { cookie: user.cookie })).text();
    expect(page).not.toContain('<select name="voice_channel_');
    expect(await visibleText(new Response(page))).toContain(
      "Every step goes by e-mail: your plan has no text messages.",
    );
    expect(page).toContain('href="/pricing"');
  });

  it("keeps each step's choices as sent when the form is refused", async () => {
    const user = await signedIn();
    await saveTextSettingsStatement(db(), user.id, { enabled: true, countries: ["GB"] }, Date.now()).run();
    const bad = await postForm(
      "/iam/cadence",
      { ...form, cadence_steps: "-3, 0, 7, 14", send_hour: "7", voice_tone_7: "3" },
      { cookie: user.cookie },
    );
    expect(bad.status).toBe(400);
    const html = await bad.text();
    expect(selected(html, "voice_channel_7")).toBe("text");
    expect(selected(html, "voice_channel_14")).toBe("both");
    expect(selected(html, "voice_tone_7")).toBe("3");
    expect((await getAccountCadence(db(), user.id)).cadence.voices).toBeUndefined();
  });
});

/** The option a server-rendered select shows as chosen. */
function selected(html: string, name: string): string | null {
  const select = new RegExp(`<select name="${name}"[^>]*>([\\s\\S]*?)</select>`).exec(html)?.[1];
  return select ? (/<option value="([^"]*)" selected=""/.exec(select)?.[1] ?? null) : null;
}

/** The cadence's summary of its steps, one chip a step. */
function chips(html: string): string[] {
  const list = /<ol[^>]*aria-label="Steps and [^"]*"[^>]*>([\s\S]*?)<\/ol>/.exec(html)?.[1] ?? "";
  return [...list.matchAll(/<li[^>]*>([^<]*)<\/li>/g)].map((m) => m[1] ?? "");
}
