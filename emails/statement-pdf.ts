import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from "pdf-lib";
import type { StatementDocument } from "../app/domain/statement-document";

/**
 * The debtor's statement as a PDF (A4), drawn with pdf-lib's standard Helvetica: a heading with who
 * is owed and by whom, a table of the open invoices that runs onto further pages, the totals, and
 * how to pay (bank transfer, the debtor's page). Text the font cannot write (its WinAnsi set) is
 * written without its accent where one is dropped ("Ł" stays "?"): the PDF never fails on a name.
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
  const pdf = await PDFDocument.create();
  pdf.setTitle(`Statement from ${doc.sender}`);
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

  text(`Statement from ${doc.sender}`, MARGIN, 20, bold);
  y -= 26;
  text(`For ${doc.debtorName}`, MARGIN, 11, regular, MUTED);
  y -= 15;
  text(`As of ${doc.date}`, MARGIN, 11, regular, MUTED);
  y -= 30;

  // The table: invoice, issued, due, state, balance (right-aligned).
  const columns = [
    { title: "Invoice", x: MARGIN, width: 120 },
    { title: "Issued", x: MARGIN + 125, width: 90 },
    { title: "Due", x: MARGIN + 220, width: 90 },
    { title: "", x: MARGIN + 315, width: 105 },
  ];
  const balanceRight = MARGIN + width;
  const header = () => {
    for (const c of columns) text(c.title, c.x, 9, bold, MUTED, c.width);
    const title = "Balance";
    page.drawText(title, { x: balanceRight - bold.widthOfTextAtSize(title, 9), y, size: 9, font: bold, color: MUTED });
    y -= 8;
    page.drawLine({ start: { x: MARGIN, y }, end: { x: balanceRight, y }, thickness: 0.7, color: RULE });
    y -= 14;
  };
  if (doc.lines.length === 0) paragraph("Nothing is open. Thank you.", 11);
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
  }
  if (doc.lines.length > 0) {
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
    paragraph(`Pay by bank transfer${doc.bankTransfer.length > 1 ? ` (${transfer.currency})` : ""}`, 12, bold);
    y -= 2;
    for (const l of transfer.lines) paragraph(`${l.label}: ${l.shown}`, 10);
    paragraph(`Reference: ${transfer.reference}`, 10);
    y -= 10;
  }
  if (y < MARGIN + 60) newPage();
  paragraph("Pay online, tell us you have paid, or ask a question on your page:", 10, regular, MUTED);
  paragraph(doc.portalUrl, 9, regular, MUTED);

  // Without object streams: the file stays readable by every viewer and by a simple check of its pages.
  return pdf.save({ useObjectStreams: false });
}
