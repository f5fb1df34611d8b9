import { expect } from "vitest";
import { decodeTurbo, type Json } from "./data-helpers";
import { MINUTE, wallClock } from "./engine-helpers";
import { schedulesOf } from "./fixtures";
import { DAY, get, ORIGIN, request, type SignedIn, uniqueIp } from "./helpers";

/** Shared by the schedule-*.test.ts files: the actions route, loader data and schedule rows. */

export const ACTIONS = "/schedules/actions";
export const SCHEDULED = "Email reminder scheduled.";
export const RESCHEDULED = "Emails sending rescheduled.";
export const DEBTOR_MSG = "Please select a debtor";
export const PRESET_MSG = "Please select a preset";
export const ORG_MSG = "Please select an organization";
export const DATE_MSG = "Please enter a valid date";
/** Where a visitor's POST to the actions route is redirected. */
export const VISITOR_REDIRECT = `/404?redirectTo=${encodeURIComponent(ACTIONS)}`;

export type Fields = Record<string, string | string[] | undefined>;

/** A form POST to ACTIONS as the page's fetcher makes it (repeated keys for `ids`). */
export async function act(
  fields: Fields,
  options: { cookie?: string; originHeader?: string | null; tz?: string } = {},
) {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) for (const x of v === undefined ? [] : [v].flat()) body.append(k, x);
  const headers = new Headers({ "Content-Type": "application/x-www-form-urlencoded", "CF-Connecting-IP": uniqueIp() });
  const originHeader = options.originHeader === undefined ? ORIGIN : options.originHeader;
  if (originHeader !== null) headers.set("Origin", originHeader);
  const cookie = [options.cookie, options.tz && `tz=${encodeURIComponent(options.tz)}`].filter(Boolean).join("; ");
  if (cookie) headers.set("Cookie", cookie);
  const res = await request(ACTIONS, { method: "POST", headers, body: body.toString() });
  const text = await res.text();
  let json: Json = null;
  try {
    json = JSON.parse(text);
  } catch {
    // Redirects and 403s are not JSON.
  }
  return { status: res.status, body: json, text, res };
}

/** A route's loader data, read as the client router does (GET <path>.data, turbo-stream). */
export async function loaderData(path: string, route: string, cookie?: string, tz?: string) {
  const url = new URL(path, ORIGIN);
  const cookies = [cookie, tz && `tz=${encodeURIComponent(tz)}`].filter(Boolean).join("; ");
  const res = await get(`${url.pathname}.data${url.search}`, { cookie: cookies || undefined });
  expect(res.status, path).toBe(200);
  const decoded = await decodeTurbo(res);
  return decoded[route]?.data as Json;
}

/** Creates a schedule through the action and returns its row (the only new one of the owner). */
export async function createVia(user: SignedIn, fields: Fields, tz?: string) {
  const before = new Set((await schedulesOf(user.userId)).map((s) => s.id));
  const t0 = Date.now();
  const { status, body } = await act({ intent: "schedule-create", ...fields }, { cookie: user.cookie, tz });
  const t1 = Date.now();
  expect(status, JSON.stringify(body)).toBe(200);
  expect(body).toMatchObject({ intent: "schedule-create", ok: true, message: SCHEDULED });
  const created = (await schedulesOf(user.userId)).filter((s) => !before.has(s.id));
  expect(created).toHaveLength(1);
  const row = created[0]!;
  expect(row.created_at).toBeGreaterThanOrEqual(t0);
  expect(row.created_at).toBeLessThanOrEqual(t1);
  return row;
}

export function expectNextMondayTen(at: number | null | undefined, after: number, timeZone: string) {
  expect(at).toEqual(expect.any(Number));
  const w = wallClock(at!, timeZone);
  expect([w.weekday, w.hour, w.minute, w.second, w.ms], `${new Date(at!).toISOString()} in ${timeZone}`).toEqual([
    "Mon",
    10,
    0,
    0,
    0,
  ]);
  expect(at!).toBeGreaterThan(after);
  expect(at! - 7 * DAY).toBeLessThanOrEqual(after);
}

/**
 * The zone of daily schedules whose zone is not the point of the test: UTC, unless 10:00 UTC is
 * minutes away (then an alarm could fire in the middle of a test).
 */
export const ZONE = Math.abs((Date.now() % DAY) - 10 * 60 * MINUTE) < 15 * MINUTE ? "Asia/Tokyo" : "UTC";

/** UTC midnight of the day of `ms`. */
export const utcDayStart = (ms: number) => Math.floor(ms / DAY) * DAY;

/** What the new-schedule form posts for a one-off reminder to the debtor `debtorId`. */
export function singleReminderFields(debtorId: number, frequency = "daily") {
  return {
    intent: "schedule-create",
    kind: "person",
    debtor_id: String(debtorId),
    preset: "SINGLE_REMINDER",
    frequency,
  };
}
