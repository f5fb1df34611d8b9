/** The meta description of Dunly's public pages (search results and link previews show it). */
export const SITE_DESCRIPTION =
  "Dunly sends the reminder e-mails for money you are owed: once, daily or weekly, polite to firm, in your name or your company's, and stops when you are paid.";

/** A page's meta: its title ("… · Dunly") and the site's description (every page has one). */
export function pageMeta(title: string) {
  return [{ title: `${title} · Dunly` }, { name: "description", content: SITE_DESCRIPTION }];
}
