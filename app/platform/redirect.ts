/**
 * A same-site path to go to after sign-in, or null. Only plain absolute paths pass: no scheme,
 * no protocol-relative `//host`, no backslash tricks.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined): string | null {
  if (typeof to !== "string" || !to.startsWith("/") || to.startsWith("//") || to.includes("\\")) return null;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point.
  if (/[\u0000-\u001f]/.test(to)) return null;
  return to;
}
