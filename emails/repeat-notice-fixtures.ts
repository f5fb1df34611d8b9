/**
 * Test data shared by emails/reminder.test.ts and emails/reminder-sources.test.ts (issue 13: a
 * one-time reminder announces no further reminders). Not imported by any Worker.
 */

/** The sentences that announce further reminders (reminder-copy.ts REPEAT_NOTICE, unanchored). */
export const REPEAT = /Further reminders will follow|Reminders will continue|Reminders will be sent regularly/;

/** The template and tone pairs whose repeating copy announces more: every Aggressive template and the Standard single reminder. */
export const ANNOUNCING_REPEATS = [
  ["initial", 3],
  ["follow-up", 3],
  ["second-follow-up", 3],
  ["final-notice", 3],
  ["single", 2],
  ["single", 3],
] as const;
