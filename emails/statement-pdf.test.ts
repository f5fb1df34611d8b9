import { PDFDocument, StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { DEBTOR_MAIL_COPY } from "../app/domain/debtor-mail-copy";
import { LANGUAGES } from "../app/domain/languages";
import { documentFileName } from "../app/ledger/documents.server";
import { bankLabel, TRANSLATED_BANK_LABELS } from "./copy/bank";
import { renderStatementPdf, writable } from "./statement-pdf";

describe("the statement PDF", () => {
  it("writes names the standard font cannot, without failing: accents dropped, the rest '?'", async () => {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    expect(writable(font, "Müller & Søn, €1.234,56")).toBe("Müller & Søn, €1.234,56");
    expect(writable(font, "Łukasz Żółć\nSp. z o.o.")).toBe("?ukasz Zó?c Sp. z o.o.");
    expect(writable(font, "株式会社")).toBe("????");
  });

  it("lays out the heading, every line over as many pages as they need, the totals and the bank details", async () => {
    const line = (n: number) => ({
      number: `INV-${n}`,
      issued: "Nov 1, 2026",
      due: "Nov 15, 2026",
      state: "Overdue · 14 days",
      balance: "€1,234.56",
    });
    const bytes = await renderStatementPdf({
      sender: "Żabka Ltd",
      debtorName: "Ana Ruiz",
      date: "Nov 29, 2026",
      lines: Array.from({ length: 80 }, (_, n) => line(n)),
      totals: ["Total still owed: €98,764.80"],
      bankTransfer: [
        {
          currency: "EUR",
          lines: [{ label: "IBAN", shown: "DE89 3704 0044 0532 0130 00", copy: "DE89370400440532013000" }],
          reference: "INV-1",
        },
      ],
      portalUrl: "https://dunly.app/d/key.sig",
    });
    const pdf = await PDFDocument.load(bytes);
    expect(pdf.getTitle()).toBe("Statement from Żabka Ltd");
    expect(pdf.getPageCount()).toBe(3);
    const empty = await PDFDocument.load(
      await renderStatementPdf({
        sender: "A",
        debtorName: "B",
        date: "Nov 29, 2026",
        lines: [],
        totals: [],
        bankTransfer: [],
        portalUrl: "https://dunly.app/d/key.sig",
      }),
    );
    expect(empty.getPageCount()).toBe(1);
  });
});

describe("the statement PDF in the debtor's language", () => {
  it("is titled in it, and every word of the five languages is in the font's set (nothing dropped)", async () => {
    const pdf = await PDFDocument.create();
    const fonts = [await pdf.embedFont(StandardFonts.Helvetica), await pdf.embedFont(StandardFonts.HelveticaBold)];
    for (const language of LANGUAGES) {
      const words = [
        ...Object.values(DEBTOR_MAIL_COPY[language]),
        ...TRANSLATED_BANK_LABELS.map((l) => bankLabel(l, language)),
      ];
      for (const font of fonts)
        for (const text of words) expect(writable(font, text), `${language}: ${text}`).toBe(text);
    }
    const german = await PDFDocument.load(
      await renderStatementPdf({
        sender: "Müller GmbH",
        debtorName: "Jürgen",
        date: "29.11.2026",
        lines: [
          {
            number: "R-1",
            issued: "01.11.2026",
            due: "15.11.2026",
            state: "Überfällig · 14 Tage",
            balance: "1.234,56 €",
          },
        ],
        totals: ["Noch offen insgesamt: 1.234,56 €"],
        bankTransfer: [],
        portalUrl: "https://dunly.app/d/key.sig",
        language: "de",
      }),
    );
    expect(german.getTitle()).toBe("Aufstellung von Müller GmbH");
  });
});

describe("an invoice PDF's file name", () => {
  it("keeps a readable name, safe in a header, always .pdf", () => {
    expect(documentFileName("Rechnung 2026-07 (Müller).pdf", "RE-1")).toBe("Rechnung 2026-07 (Müller).pdf");
    expect(documentFileName('a"b\\c\r\nd.PDF', null)).toBe("a-b-c-d.PDF");
    expect(documentFileName("scan", "RE/2026/7")).toBe("scan.pdf");
    expect(documentFileName("", "RE/2026/7")).toBe("RE-2026-7.pdf");
    expect(documentFileName(null, null)).toBe("invoice.pdf");
  });
});

describe("the statement PDF with late-payment charges", () => {
  it("draws each charge and its basis under its invoice and the paid invoices' charges apart, over further pages", async () => {
    const doc = (withCharges: boolean) => ({
      sender: "Acme Ltd",
      debtorName: "Ana Ruiz",
      date: "Nov 29, 2026",
      lines: Array.from({ length: 30 }, (_, n) => ({
        number: `INV-${n}`,
        issued: "Sep 1, 2026",
        due: "Sep 30, 2026",
        state: "Overdue · 60 days",
        balance: "£4,000.00",
        ...(withCharges
          ? {
              charges: [
                {
                  label: "Statutory interest",
                  basis:
                    "Statutory interest under the Late Payment of Commercial Debts (Interest) Act 1998 at 12.75% a year on £4,000.00 from Oct 1, 2026 to Nov 28, 2026 (59 days)",
                  state: "£10.00 of £82.44 paid",
                  balance: "£72.44",
                },
              ],
            }
          : {}),
      })),
      ...(withCharges
        ? {
            chargesOnPaidHeading: "Charges still owed on paid invoices",
            chargesOnPaid: [{ label: "Late fee, invoice PAID-1", basis: null, state: "", balance: "£25.00" }],
          }
        : {}),
      totals: withCharges
        ? ["Invoices: £120,000.00", "Charges: £2,198.20", "Total: £122,198.20"]
        : ["Total: £120,000.00"],
      bankTransfer: [],
      portalUrl: "https://dunly.app/d/key.sig",
    });
    const plainPages = (await PDFDocument.load(await renderStatementPdf(doc(false)))).getPageCount();
    const charged = await PDFDocument.load(await renderStatementPdf(doc(true)));
    // Thirty charges with their bases take room of their own: the statement runs onto more pages.
    expect(charged.getPageCount()).toBeGreaterThan(plainPages);
    // Only paid invoices' charges, nothing open: it still renders, on one page.
    const onlyPaid = await renderStatementPdf({ ...doc(true), lines: [] });
    expect((await PDFDocument.load(onlyPaid)).getPageCount()).toBe(1);
  });
});
