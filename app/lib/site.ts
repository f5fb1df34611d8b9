/** The meta description of Dunly's public pages (search results and link previews show it). */
export const SITE_DESCRIPTION =
  "Dunly sends the reminder e-mails for money you are owed: once, daily or weekly, polite to firm, in your name or your company's, and stops when you are paid.";
