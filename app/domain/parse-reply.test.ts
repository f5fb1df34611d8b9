import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  formatReplyAddress,
  htmlToText,
  isAutomaticMail,
  MAX_REPLY_BYTES,
  MAX_REPLY_TEXT_BYTES,
  parseReplyAddress,
  replyText,
} from "./inbound-mail";
import { parseReply } from "./parse-reply";

const fixture = (name: string) => readFileSync(new URL(`../../tests/fixtures/mail/${name}`, import.meta.url));

describe("parseReply: real shapes", () => {
  it("Gmail: multipart/alternative, quoted-printable text part", async () => {
    const r = await parseReply(fixture("gmail.eml"));
    expect(r.from).toBe("ana.ruiz@gmail.com");
    expect(r.fromName).toBe("Ana Ruiz");
    expect(r.subject).toBe("Re: Invoice INV-7 is overdue");
    expect(r.sentAt).toBe(Date.parse("2026-11-24T08:12:44Z"));
    expect(r.text).toContain("I paid yesterday — the transfer should arrive by Friday. Sorry for the delay!");
    expect(r.text).not.toContain("<div");
    expect(r.automatic).toBe(false);
    expect(r.bounce).toBe(false);
    expect(r.attachments).toEqual([]);
  });

  it("Outlook: base64 UTF-8 body, encoded-word subject", async () => {
    const r = await parseReply(fixture("outlook.eml"));
    expect(r.subject).toBe("RE: Factura INV-7 — ¿dividir el pago?");
    expect(r.text).toContain("¿Podemos dividir el pago en dos cuotas? Gracias.");
    expect(r.automatic).toBe(false);
  });

  it("Apple Mail: a single quoted-printable text part", async () => {
    const r = await parseReply(fixture("apple-mail.eml"));
    expect(r.from).toBe("ana@icloud.com");
    expect(r.text).toContain("Wrong address, sorry — I think you want Ana Ruiz at Ruiz & Co, not me.");
    expect(r.automatic).toBe(false);
  });

  it("an HTML-only reply is kept as text: no tags, no script, no style", async () => {
    const r = await parseReply(fixture("html-only.eml"));
    expect(r.subject).toBe("Re: Pago recibido ✓");
    expect(r.text).toContain("I will pay on Friday & send proof.");
    expect(r.text).not.toMatch(/<|alert|color:red/);
  });

  it("an attachment: its name and size, never its content", async () => {
    const r = await parseReply(fixture("attachment.eml"));
    expect(r.text).toBe("Proof of payment attached.");
    expect(r.attachments).toEqual([{ name: "transfer-receipt.pdf", size: 3000 }]);
  });

  it("a multipart/report delivery-status notification is a bounce (and automatic)", async () => {
    const r = await parseReply(fixture("bounce.eml"));
    expect(r.bounce).toBe(true);
    expect(r.automatic).toBe(true);
  });

  it("an out-of-office (Auto-Submitted: auto-replied) is automatic, not a bounce", async () => {
    const r = await parseReply(fixture("out-of-office.eml"));
    expect(r.automatic).toBe(true);
    expect(r.bounce).toBe(false);
  });

  it("refuses a message over the size cap", async () => {
    await expect(parseReply("x".repeat(MAX_REPLY_BYTES + 1))).rejects.toThrow(/size cap/);
  });
});

describe("reply addresses", () => {
  const key = "0123456789abcdef0123456789abcdef";
  const sig = "0123456789abcdef0123456789";
  it("round-trips, case-insensitively, on the inbound domain only", () => {
    const address = formatReplyAddress(key, sig, "Inbound.Example");
    expect(address).toBe(`r-${key}-${sig}@inbound.example`);
    expect(parseReplyAddress(address.toUpperCase(), "inbound.example")).toEqual({ key, signature: sig });
    expect(parseReplyAddress(address, "other.example")).toBeNull();
  });
  it("refuses anything else", () => {
    for (const bad of [
      `r-${key}-${sig}x@inbound.example`,
      `r-${key}-${sig.slice(1)}@inbound.example`,
      `r-${key}+tag-${sig}@inbound.example`,
      `${key}.${sig}@inbound.example`,
      "ana@inbound.example",
      "no-at-sign",
      `r-${key}-${sig}@inbound.example${"x".repeat(300)}`,
    ]) {
      expect(parseReplyAddress(bad, "inbound.example")).toBeNull();
    }
  });
});

describe("automatic mail", () => {
  const h = (key: string, value: string) => [{ key, value }];
  it("knows the auto-reply headers", () => {
    expect(isAutomaticMail(h("auto-submitted", "auto-replied"), "a@b.c")).toBe(true);
    expect(isAutomaticMail(h("auto-submitted", "no"), "a@b.c")).toBe(false);
    expect(isAutomaticMail(h("x-autoreply", "yes"), "a@b.c")).toBe(true);
    expect(isAutomaticMail(h("x-autorespond", "yes"), "a@b.c")).toBe(true);
    expect(isAutomaticMail(h("precedence", "bulk"), "a@b.c")).toBe(true);
    expect(isAutomaticMail(h("precedence", "auto_reply"), "a@b.c")).toBe(true);
    expect(isAutomaticMail([], "MAILER-DAEMON@example.com")).toBe(true);
    expect(isAutomaticMail([], "postmaster@example.com")).toBe(true);
    expect(isAutomaticMail([], "ana@example.com")).toBe(false);
  });
});

describe("reply text", () => {
  it("strips HTML safely and decodes entities", () => {
    expect(htmlToText("<p>a &lt;b&gt; &#8364;1</p><!-- x --><script>bad()</script>")).toBe("a <b> €1");
  });
  it("keeps at most 64 KB", () => {
    const t = replyText({ text: "é".repeat(MAX_REPLY_TEXT_BYTES) });
    expect(new TextEncoder().encode(t).length).toBeLessThanOrEqual(MAX_REPLY_TEXT_BYTES);
  });
});
