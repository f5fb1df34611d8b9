import { expect } from "vitest";
import { connectionOf } from "~/accounting/index.server";
import { entityScopeOf, type makeSignedInUser } from "./fixtures";
import { get, location, postForm } from "./helpers";

/**
 * Connecting an accounting tool's local stand-in as the user does (decisions/060, 061), for the
 * tests that need a connection rather than test connecting (accounting-xero.test.ts and
 * accounting-quickbooks.test.ts walk every step of it).
 */

export type AccountingUser = Awaited<ReturnType<typeof makeSignedInUser>>;
export type Tool = "xero" | "quickbooks";

export const cookieOf = (u: AccountingUser) => `dunly_session=${u.token}`;

/** Connect → the stand-in's consent page → allow → the callback; each step's answer. */
export async function connectThroughStandIn(tool: Tool, cookie: string) {
  const started = await postForm(`/iam/accounting/${tool}/connect`, {}, { cookie });
  expect(started.status).toBe(303);
  const consent = new URL(location(started)!);
  const allowed = await postForm(`/dev/${tool}/authorize`, [...consent.searchParams.entries(), ["decision", "allow"]], {
    cookie,
  });
  expect(allowed.status).toBe(303);
  const callback = new URL(location(allowed)!);
  const done = await get(callback.pathname + callback.search, { cookie });
  expect(done.status).toBe(303);
  return { consent, callback, done };
}

/** The owner's connection to `tool`: its organisation's id (Xero's tenant, QuickBooks' realm). */
export async function connectedTenant(user: AccountingUser, tool: Tool) {
  const row = await connectionOf(entityScopeOf(user.id).db, user.id);
  if (!row?.tenantId || row.provider !== tool) throw new Error(`${tool} is not connected`);
  return { tenantId: row.tenantId, importedAt: row.importedAt };
}

/** Connected, then the preview and the import from the tab: the organisation's id and the cookie. */
export async function connectAndImport(user: AccountingUser, tool: Tool) {
  await connectThroughStandIn(tool, cookieOf(user));
  return importFromTab(user, tool);
}

/** The preview and the import from the tab, for a user already connected to `tool`. */
export async function importFromTab(user: AccountingUser, tool: Tool) {
  const cookie = cookieOf(user);
  expect((await postForm("/iam/accounting", { intent: "accounting-preview" }, { cookie })).status).toBe(200);
  expect((await postForm("/iam/accounting", { intent: "accounting-import" }, { cookie })).status).toBe(303);
  const { tenantId, importedAt } = await connectedTenant(user, tool);
  if (!importedAt) throw new Error("not imported");
  return { tenantId, cookie };
}
