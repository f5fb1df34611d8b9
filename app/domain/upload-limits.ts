/**
 * The largest files the pages upload, with the messages that refuse them. Client safe: the pages
 * check a chosen file's size before sending it (no upload only to be refused), and the server
 * checks again while the body streams in (app/platform/body-limit.server.ts): without JavaScript it
 * reads the rest of an upload over the limit, up to MAX_DRAINED_BYTES, so that the browser shows
 * its answer.
 */

/** A CSV import: the largest file (or pasted text), in bytes. */
export const MAX_IMPORT_BYTES = 2 * 1024 * 1024;
export const IMPORT_TOO_LARGE = "The file is larger than 2 MB. Please split it into smaller files.";

/** A profile photo. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const UNSUPPORTED_IMAGE = "Unsupported image type. We support JPEG, PNG and WebP.";
export const IMAGE_TOO_LARGE = "The image is too large. Please choose one of at most 5 MB.";

/** An invoice's PDF. */
export const MAX_PDF_BYTES = 10 * 1024 * 1024;
export const PDF_TOO_LARGE = "The PDF is larger than 10 MB. Please choose a smaller file.";
export const NOT_A_PDF = "This is not a PDF. Please choose the invoice as a PDF file.";
export const PDF_MISSING = "Please choose the invoice's PDF file.";
