import Papa from "papaparse";

/**
 * CSV for download (docs/architecture.md §10), written by papaparse: quoted where needed, CRLF line ends,
 * and formula-safe: a text cell that starts with = + - @ tab or CR gets a leading ' so a
 * spreadsheet shows it instead of running it (numbers are written as numbers).
 */
export function toCsv(header: readonly string[], rows: readonly (readonly (string | number | null)[])[]): string {
  return Papa.unparse(
    { fields: [...header], data: rows.map((r) => r.map((cell) => cell ?? "")) },
    // Not papaparse's own `true`: its pattern misses a cell whose formula is followed by a line break.
    { escapeFormulae: /^[=+\-@\t\r]/, newline: "\r\n" },
  );
}

/** The headers of a CSV download: `filename` is plain ASCII (no quoting surprises). */
export function csvHeaders(filename: string) {
  return {
    "Content-Type": "text/csv; charset=utf-8",
    "Content-Disposition": `attachment; filename="${filename.replace(/[^A-Za-z0-9._-]/g, "_")}"`,
    "Cache-Control": "no-store",
  };
}
