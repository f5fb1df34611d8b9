/**
 * An address shown so its owner recognizes it and an onlooker learns little: the first and last
 * character of the local part around a mask, and the domain in full ("jane.doe@example.com" →
 * "j•••e@example.com"). The sign-in page uses it to say which account a link signs into.
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at <= 0) return "•••";
  const local = [...email.slice(0, at)];
  const domain = email.slice(at + 1);
  const first = local[0];
  const last = local.length > 2 ? local[local.length - 1] : "";
  return `${first}•••${last}@${domain}`;
}
