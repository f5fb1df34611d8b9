/**
 * The largest files the pages upload, with the messages that refuse them. Client safe: the pages
 * check a chosen file's size before sending it, and the server checks again while the body
 * streams in (app/lib/body-limit.server.ts). A refused upload never leaves a page: answered
 * before its body was read, workerd closes the connection under the upload and the browser gets
 * no answer at all (docs/architecture.md §8).
 */

/** A CSV import: the largest file (or pasted text), in bytes (docs/architecture.md §10, CSV). */
export const MAX_IMPORT_BYTES = 2 * 1024 * 1024;
export const IMPORT_TOO_LARGE = "The file is larger than 2 MB. Please split it into smaller files.";

/** A profile photo. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const UNSUPPORTED_IMAGE = "Unsupported image type. We support JPEG, PNG and WebP.";
export const IMAGE_TOO_LARGE = "The image is too large. Please choose one of at most 5 MB.";
