import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from "pdf-lib";
import { debtorMailText } from "../app/domain/debtor-mail-copy";
import type { StatementChargeLine, StatementDocument } from "../app/domain/statement-document";
import { bankLabel } from "./copy/bank";

/**
 * The debtor's statement as a PDF (A4), drawn with pdf-lib's standard Helvetica: a heading with who
 * is owed and by whom, a table of the open invoices that runs onto further pages, the totals, and
 * how to pay (bank transfer, the debtor's page). Text the font cannot write (its WinAnsi set) is
 * written without its accent where one is dropped ("Ł" stays "?"): the PDF never fails on a name.
 * Its words are in the document's language (English, German, French, Spanish, Dutch: all within
 * WinAnsi, so none loses an accent).
 */

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 50;
const INK = rgb(0.1, 0.1, 0.15);
const MUTED = rgb(0.4, 0.4, 0.45);
const RULE = rgb(0.85, 0.85, 0.88);

/** The text as the font can write it: accents dropped where needed, anything else "?". */
export function writable(font: PDFFont, text: string): string {
  const clean = text.replace(/[\r\n\t]+/g, " ");
  let out = "";
  for (const char of clean) {
    if (canWrite(font, char)) out += char;
    else {
      const bare = char.normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
      out += bare && [...bare].every((c) => canWrite(font, c)) ? bare : "?";
    }
  }
  return out;
}

function canWrite(font: PDFFont, char: string) {
  try {
    font.encodeText(char);
    return true;
  } catch {
    return false;
  }
}

/** Cuts `text` to `width` points with an ellipsis. */
function cutToWidth(font: PDFFont, text: string, size: number, width: number) {
  if (font.widthOfTextAtSize(text, size) <= width) return text;
  let cut = text;
  while (cut.length > 1 && font.widthOfTextAtSize(`${cut}…`, size) > width) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/** Breaks `text` into lines of at most `width` points. */
function wrap(font: PDFFont, text: string, size: number, width: number) {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    const next = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(next, size) <= width || !line) line = next;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  return lines.map((l) => cutToWidth(font, l, size, width));
}

export async function renderStatementPdf(doc: StatementDocument): Promise<Uint8Array> {
  const t = debtorMailText(doc.language);
  const pdf = await PDFDocument.create();
  pdf.setTitle(t("statementFrom", { sender: doc.sender }));
  pdf.setAuthor(doc.sender);
  pdf.setCreator("Dunly");
  pdf.setProducer("Dunly");
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const width = A4[0] - 2 * MARGIN;
  let page: PDFPage = pdf.addPage(A4);
  let y = A4[1] - MARGIN;

  const newPage = () => {
    page = pdf.addPage(A4);
    y = A4[1] - MARGIN;
  };
  const text = (value: string, x: number, size: number, font = regular, color = INK, maxWidth = width) => {
    page.drawText(cutToWidth(font, writable(font, value), size, maxWidth), { x, y, size, font, color });
  };
  const paragraph = (value: string, size: number, font = regular, color = INK) => {
    for (const line of wrap(font, writable(font, value), size, width)) {
      if (y < MARGIN + size) newPage();
      page.drawText(line, { x: MARGIN, y, size, font, color });
      y -= size * 1.45;
    }
  };

  text(t("statementFrom", { sender: doc.sender }), MARGIN, 20, bold);
  y -= 26;
  text(t("statementFor", { debtorName: doc.debtorName }), MARGIN, 11, regular, MUTED);
  y -= 15;
  text(t("statementAsOf", { date: doc.date }), MARGIN, 11, regular, MUTED);
  y -= 30;

  // The table: invoice, issued, due, state, balance (right-aligned).
  const columns = [
    { title: t("invoiceHeading"), x: MARGIN, width: 120 },
    { title: t("issuedHeading"), x: MARGIN + 125, width: 90 },
    { title: t("dueHeading"), x: MARGIN + 220, width: 90 },
    { title: "", x: MARGIN + 315, width: 105 },
  ];
  const balanceRight = MARGIN + width;
  const header = () => {
    for (const c of columns) text(c.title, c.x, 9, bold, MUTED, c.width);
    const title = writable(bold, t("balanceHeading"));
    page.drawText(title, { x: balanceRight - bold.widthOfTextAtSize(title, 9), y, size: 9, font: bold, color: MUTED });
    y -= 8;
    page.drawLine({ start: { x: MARGIN, y }, end: { x: balanceRight, y }, thickness: 0.7, color: RULE });
    y -= 14;
  };
  // A late-payment charge (decisions/067): indented under its invoice, its basis in small words below.
  const chargeRow = (charge: StatementChargeLine) => {
    if (y < MARGIN + 40) {
      newPage();
      header();
    }
    text(charge.label, MARGIN + 12, 9.5, regular, INK, 290);
    if (charge.state) text(charge.state, MARGIN + 315, 8.5, regular, MUTED, 105);
    const owed = writable(regular, charge.balance);
    page.drawText(owed, {
      x: balanceRight - regular.widthOfTextAtSize(owed, 9.5),
      y,
      size: 9.5,
      font: regular,
      color: INK,
    });
    y -= 13;
    if (charge.basis) {
      for (const line of wrap(regular, writable(regular, charge.basis), 8, width - 12)) {
        if (y < MARGIN + 12) newPage();
        page.drawText(line, { x: MARGIN + 12, y, size: 8, font: regular, color: MUTED });
        y -= 11;
      }
    }
    y -= 4;
  };
  if (doc.lines.length === 0 && !doc.chargesOnPaid?.length) paragraph(t("nothingOpen"), 11);
  else header();
  for (const line of doc.lines) {
    if (y < MARGIN + 40) {
      newPage();
      header();
    }
    const cells = [line.number, line.issued, line.due, line.state];
    cells.forEach((cell, i) => {
      const c = columns[i];
      if (c) text(cell, c.x, 10, i === 0 ? bold : regular, i === 3 ? MUTED : INK, c.width);
    });
    const balance = writable(regular, line.balance);
    page.drawText(balance, {
      x: balanceRight - regular.widthOfTextAtSize(balance, 10),
      y,
      size: 10,
      font: regular,
      color: INK,
    });
    y -= 18;
    for (const charge of line.charges ?? []) chargeRow(charge);
  }
  if (doc.chargesOnPaid?.length) {
    if (y < MARGIN + 60) {
      newPage();
      header();
    }
    text(doc.chargesOnPaidHeading ?? "", MARGIN, 10, bold);
    y -= 16;
    for (const charge of doc.chargesOnPaid) chargeRow(charge);
  }
  if (doc.lines.length > 0 || doc.chargesOnPaid?.length) {
    page.drawLine({ start: { x: MARGIN, y: y + 8 }, end: { x: balanceRight, y: y + 8 }, thickness: 0.7, color: RULE });
    y -= 6;
  }
  for (const total of doc.totals) {
    if (y < MARGIN + 20) newPage();
    const t = writable(bold, total);
    page.drawText(t, { x: balanceRight - bold.widthOfTextAtSize(t, 11), y, size: 11, font: bold, color: INK });
    y -= 18;
  }
  y -= 14;

  for (const transfer of doc.bankTransfer) {
    if (y < MARGIN + 100) newPage();
    paragraph(
      doc.bankTransfer.length > 1 ? t("payByBankIn", { currency: transfer.currency }) : t("payByBank"),
      12,
      bold,
    );
    y -= 2;
    for (const l of transfer.lines) paragraph(`${bankLabel(l.label, doc.language ?? "en")}: ${l.shown}`, 10);
    paragraph(t("reference", { reference: transfer.reference }), 10);
    y -= 10;
  }
  if (y < MARGIN + 60) newPage();
  paragraph(t("payOnline"), 10, regular, MUTED);
  paragraph(doc.portalUrl, 9, regular, MUTED);

  // Without object streams: the file stays readable by every viewer and by a simple check of its pages.
  return pdf.save({ useObjectStreams: false });
}
