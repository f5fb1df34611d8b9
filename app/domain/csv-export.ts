import Papa from "papaparse";

/**
 * CSV for download, written by papaparse: quoted where needed, CRLF line ends,
 * and formula-safe: a text cell that starts with = + - @ tab or CR gets a leading ' so a
 * spreadsheet shows it instead of running it (numbers are written as numbers).
 */
export function toCsv(header: readonly string[], rows: readonly CsvRow[]): string {
  return Papa.unparse({ fields: [...header], data: rows.map(cellsOf) }, UNPARSE);
}

export { EXPORT_PAGE } from "./export-page";

/** A row of cells: text, a number, or nothing (an empty cell). */
export type CsvRow = readonly (string | number | null)[];

// Not papaparse's own `true`: its pattern misses a cell whose formula is followed by a line break.
const UNPARSE = { escapeFormulae: /^[=+\-@\t\r]/, newline: "\r\n" };
const NEWLINE = "\r\n";
const cellsOf = (row: CsvRow) => row.map((cell) => cell ?? "");

const FORMULA = UNPARSE.escapeFormulae;
// papaparse quotes a cell holding a line break, a quote, the delimiter or a byte-order mark.
const NEEDS_QUOTES = /[\r\n",\uFEFF]/;

/**
 * One cell exactly as papaparse's unparse writes it with UNPARSE (its `safe`): a text cell that
 * looks like a formula gets a leading ' and quotes; quotes are doubled; a cell is quoted when it
 * holds a line break, a quote, a comma or a byte-order mark, or starts or ends with a space.
 * Written out because a streamed export calls it for every cell (papaparse's general path was
 * about half of /report.csv's time); csv-export.test.ts holds it to papaparse's output.
 */
function csvCell(value: string | number | null): string {
  if (value === null) return "";
  let text = String(value);
  let quote = false;
  if (typeof value !== "number" && FORMULA.test(text)) {
    text = `'${text}`;
    quote = true;
  }
  const escaped = text.includes('"') ? text.replaceAll('"', '""') : text;
  quote ||= NEEDS_QUOTES.test(escaped) || escaped.startsWith(" ") || escaped.endsWith(" ");
  return quote ? `"${escaped}"` : escaped;
}

/** Rows as CSV lines between CRLFs, none before the first or after the last, escaped as toCsv does. */
function csvLines(rows: readonly CsvRow[]): string {
  return rows.map((row) => row.map(csvCell).join(",")).join(NEWLINE);
}

/**
 * A CSV download written while its rows are read: the byte-order
 * mark and the header at once, then each page of rows as `pages` yields it, so the file is never
 * whole in memory however many rows it has. The stream pulls the next page only when the one
 * before has been taken (backpressure). The bytes are exactly those of `\uFEFF` + toCsv(header,
 * all rows): each cell is quoted on its own, pages are joined by CRLF, and a file without rows
 * ends with the header's CRLF as papaparse writes it. The first page is read before the response
 * is made, so an error there is an ordinary error response, not a cut-off file.
 */
export async function csvResponse(
  filename: string,
  header: readonly string[],
  pages: AsyncIterable<readonly CsvRow[]>,
): Promise<Response> {
  const encoder = new TextEncoder();
  const iterator = pages[Symbol.asyncIterator]();
  let read: IteratorResult<readonly CsvRow[]> | null = await iterator.next();
  let empty = true;
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(`\uFEFF${csvLines([header])}`));
      },
      async pull(controller) {
        // Past empty pages: a pull that enqueues nothing is not called again.
        let next = read ?? (await iterator.next());
        read = null;
        while (!next.done && next.value.length === 0) next = await iterator.next();
        if (next.done) {
          if (empty) controller.enqueue(encoder.encode(NEWLINE));
          controller.close();
          return;
        }
        empty = false;
        controller.enqueue(encoder.encode(`${NEWLINE}${csvLines(next.value)}`));
      },
      async cancel() {
        await iterator.return?.();
      },
    },
    { highWaterMark: 1 },
  );
  return new Response(body, { headers: csvHeaders(filename) });
}

/** The headers of a CSV download: `filename` is plain ASCII (no quoting surprises). */
export function csvHeaders(filename: string) {
  return {
    "Content-Type": "text/csv; charset=utf-8",
    "Content-Disposition": `attachment; filename="${filename.replace(/[^A-Za-z0-9._-]/g, "_")}"`,
    // One user's data: never in a shared cache.
    "Cache-Control": "private, no-store",
  };
}
