/**
 * Rows one statement of a streamed export reads.
 * A module of its own: the models that page through an export need the number, not the CSV writer
 * (which brings papaparse).
 */
export const EXPORT_PAGE = 1000;
