import { type Context, Hono } from "hono";
import * as v from "valibot";
import {
  ImageRejected,
  isOwnImageKey,
  replaceProfileImage,
  signedImageUrl,
  storeProfileImage,
} from "~/account/index.server";
import { writeBackAfter } from "~/accounting/index.server";
import { getProfile, profileToJson, updateProfileName } from "~/auth/index.server";
import { getDb } from "~/db/client.server";
import {
  ContactLimitReached,
  contactEntity,
  contactToJson,
  debtorEntity,
  debtorRowOf,
  debtorToJson,
  getDebtor,
  listContacts,
  listDebtors,
  listOrganizations,
  organizationEntity,
  organizationToJson,
  primaryContactToJson,
} from "~/debtors/index.server";
import { AccountCapReached } from "~/domain/account-caps";
import { dateTimeFormat } from "~/domain/intl";
import { fromCents } from "~/domain/money";
import { getPreset, type PresetId, templateForStep } from "~/domain/presets";
import { FieldsRefused, TwinFound } from "~/domain/refused";
import { IMAGE_TOO_LARGE, MAX_IMAGE_BYTES } from "~/domain/upload-limits";
import {
  type InvoiceWrite,
  invoiceEntity,
  invoiceToJson,
  listInvoices,
  listPayments,
  type PaymentWrite,
  type PaymentWriteError,
  paymentEntity,
  paymentToJson,
} from "~/ledger/index.server";
import { BodyTooLarge, readBodyWithin } from "~/platform/body-limit.server";
import { entityScope, type OwnedEntity } from "~/platform/scope.server";
import { getScheduleDetails, listSchedules, type ScheduleListRow, scheduleEntity } from "~/reminders/index.server";
import { JsonIdSchema } from "~/schemas/ids";
import { DEBTOR_MESSAGES, SOMETHING_WRONG, twinDebtorMessage } from "~/schemas/messages";
import { ProfileNameSchema } from "~/schemas/profile";
import type { AppBindings } from "./hono-env";

type Ctx = Context<AppBindings>;
type FieldErrors = Record<string, string[]>;

/**
 * The JSON API of docs/product-spec.md §7. Authenticated by the session only: `fb_uuid` must be the caller's id
 * (403 otherwise), records of other users answer 404, bad payloads 400 with field errors.
 */
export const api = new Hono<AppBindings>();

const fail = (c: Ctx, status: 400 | 401 | 403 | 404 | 409 | 413 | 415, error: string, errors?: FieldErrors) =>
  c.json({ success: false, error, ...(errors ? { errors } : {}) }, status);

api.use("*", async (c, next) => {
  if (!c.get("user")) return fail(c, 401, "Not signed in");
  await next();
});

/** The signed-in user; the middleware above answered 401 for everyone else. */
function me(c: Ctx) {
  const user = c.get("user");
  if (!user) throw new Error("API handler reached without a signed-in user");
  return user;
}

function fieldErrors(issues: [v.BaseIssue<unknown>, ...v.BaseIssue<unknown>[]]): FieldErrors {
  const flat = v.flatten(issues);
  const errors: FieldErrors = {};
  for (const [key, messages] of Object.entries(flat.nested ?? {})) if (messages) errors[key] = messages;
  if (flat.root) errors._ = flat.root;
  return errors;
}

/** Far past any account's rows, and an integer SQLite takes. */
const MAX_OFFSET = 1_000_000_000;

/** A whole number from the query, clamped to [min, max]; `fallback` when absent or not a number. */
function queryInt(value: string | undefined, fallback: number, min: number, max: number) {
  const n = Number(value);
  if (value === undefined || value.trim() === "" || Number.isNaN(n)) return fallback;
  return Math.min(Math.max(Math.floor(n), min), max);
}

/** The JSON body, or null when it is not a JSON object. */
async function jsonBody(c: Ctx): Promise<Record<string, unknown> | null> {
  try {
    const body = await c.req.json();
    return body && typeof body === "object" && !Array.isArray(body) ? body : null;
  } catch {
    return null;
  }
}

/** 403 unless the given fb_uuid (query or body) is the signed-in user's own id. */
function ownerMismatch(c: Ctx, fbUuid: unknown) {
  if (fbUuid === undefined || fbUuid === null || fbUuid === "") return null;
  return fbUuid === me(c).id ? null : fail(c, 403, "fb_uuid is not the signed-in user");
}

/** The JSON object body once its fb_uuid (if any) is the caller's; otherwise the error to answer. */
async function ownedBody(c: Ctx): Promise<{ body: Record<string, unknown> } | { error: Response }> {
  const body = await jsonBody(c);
  if (!body) return { error: fail(c, 400, "Expected a JSON object") };
  const denied = ownerMismatch(c, body.fb_uuid);
  return denied ? { error: denied } : { body };
}

function parseId(body: Record<string, unknown>) {
  const id = v.safeParse(JsonIdSchema, body.id);
  return id.success ? id.output : null;
}

/** The scope of the caller's write: the same the form actions build (app/platform/scope.server.ts). */
const scopeOf = (c: Ctx) => entityScope(c.env, c.get("config"), me(c), c.req.raw);

/**
 * POST {base}/add, PUT {base}/edit and DELETE {base}/del for the caller's own records, made from
 * the entity's description (the features' *-entity.server.ts), the same the form actions use: 400 with field errors
 * for a bad body, 404 for an id that is not theirs, 403 past the account's cap.
 */
function writeRoutes<Input, Row>(base: string, entity: OwnedEntity<Input, Row>) {
  const { messages } = entity;
  const missingId = { id: [messages.missingId] };

  api.post(`${base}/add`, async (c) => {
    const owned = await ownedBody(c);
    if ("error" in owned) return owned.error;
    const parsed = v.safeParse(entity.schemas.json, owned.body);
    if (!parsed.success) return fail(c, 400, messages.invalid, fieldErrors(parsed.issues));
    try {
      // `"allow_duplicate": true` adds a debtor even when one with the same e-mail exists.
      const row = await entity.create(scopeOf(c), parsed.output, {
        allowDuplicate: owned.body.allow_duplicate === true,
      });
      return c.json({ success: true, error: null, data: entity.toJson(row, me(c).id) });
    } catch (error) {
      if (error instanceof AccountCapReached) return fail(c, 403, error.message);
      if (error instanceof FieldsRefused) return fail(c, 400, messages.invalid, error.fieldErrors);
      if (error instanceof TwinFound) {
        // 409 with the debtor already there: add an invoice to it (POST /api/invoices/add), or
        // send the body again with "allow_duplicate": true.
        const { id, fullName } = error.existing;
        return c.json(
          {
            success: false,
            error: twinDebtorMessage(fullName),
            existing: { id, full_name: fullName },
            [`existing_${entity.noun}_id`]: id,
          },
          409,
        );
      }
      throw error;
    }
  });

  api.put(`${base}/edit`, async (c) => {
    const owned = await ownedBody(c);
    if ("error" in owned) return owned.error;
    const id = parseId(owned.body);
    if (!id) return fail(c, 400, messages.invalid, missingId);
    const parsed = v.safeParse(entity.schemas.json, owned.body);
    if (!parsed.success) return fail(c, 400, messages.invalid, fieldErrors(parsed.issues));
    let row: Row | undefined;
    try {
      row = await entity.update(scopeOf(c), id, parsed.output);
    } catch (error) {
      if (error instanceof FieldsRefused) return fail(c, 400, messages.invalid, error.fieldErrors);
      throw error;
    }
    if (!row) return fail(c, 404, messages.notFound);
    return c.json({ success: true, error: null, data: entity.toJson(row, me(c).id) });
  });

  api.delete(`${base}/del`, async (c) => {
    const owned = await ownedBody(c);
    if ("error" in owned) return owned.error;
    const id = parseId(owned.body);
    if (!id) return fail(c, 400, messages.invalid, missingId);
    if (!(await entity.remove(scopeOf(c), id))) return fail(c, 404, messages.notFound);
    return c.json({ success: true, error: null });
  });
}

// Profile ---------------------------------------------------------------------------------

/** ownedBody for the profile, whose own `id` (when given) is the user id too: 403 otherwise. */
async function ownedProfileBody(c: Ctx) {
  const owned = await ownedBody(c);
  if ("error" in owned) return owned;
  const denied = owned.body.id !== undefined ? ownerMismatch(c, owned.body.id) : null;
  return denied ? { error: denied } : owned;
}

api.get("/profile", async (c) => {
  const denied = ownerMismatch(c, c.req.query("fb_uuid"));
  if (denied) return denied;
  const profile = await getProfile(getDb(c.env.DB), me(c).id);
  return c.json(profile ? [profileToJson(profile)] : []);
});

// Profiles are created at first sign-in; this returns it, updating the name if one is given.
api.post("/profile/add", async (c) => {
  const owned = await ownedBody(c);
  if ("error" in owned) return owned.error;
  const { body } = owned;
  const db = getDb(c.env.DB);
  if (body.full_name !== undefined) {
    const parsed = v.safeParse(ProfileNameSchema, body);
    if (!parsed.success) return fail(c, 400, "Invalid profile", fieldErrors(parsed.issues));
    await updateProfileName(db, me(c).id, parsed.output.full_name);
  }
  const profile = await getProfile(db, me(c).id);
  if (!profile) return fail(c, 404, "Profile not found");
  return c.json({ success: true, data: profileToJson(profile) });
});

api.put("/profile/edit", async (c) => {
  const owned = await ownedProfileBody(c);
  if ("error" in owned) return owned.error;
  const { body } = owned;
  const parsed = v.safeParse(ProfileNameSchema, body);
  if (!parsed.success) return fail(c, 400, "Invalid profile", fieldErrors(parsed.issues));
  await updateProfileName(getDb(c.env.DB), me(c).id, parsed.output.full_name);
  return c.json({ success: true, error: null });
});

api.put("/profile/changeImg", async (c) => {
  const owned = await ownedProfileBody(c);
  if ("error" in owned) return owned.error;
  const { body } = owned;
  if (typeof body.img !== "string" || !body.img)
    return fail(c, 400, "Invalid image", { img: ["Please choose an image"] });
  // PUT /r2 already made the upload the profile photo (one per account); this confirms it. Any
  // other key is not the account's photo any more (its object was deleted) or never was.
  const profile = await getProfile(getDb(c.env.DB), me(c).id);
  if (!profile?.imgKey || profile.imgKey !== body.img) return fail(c, 404, "Image not found");
  return c.json({ success: true, error: null });
});

// Images ------------------------------------------------------------------------------------

api.get("/r2/getPresignedUrl", async (c) => {
  const key = c.req.query("key") ?? "";
  if (!isOwnImageKey(key, me(c).id) || !(await c.env.IMAGES.head(key))) return fail(c, 404, "Image not found");
  return c.json({ success: true, signedUrl: await signedImageUrl(c.get("config"), key) });
});

/**
 * The photo upload. The spec's client names a key; it must still be under the caller's id, but
 * the object is stored under a key the server makes, and becomes the profile photo at once: each
 * account has one photo in R2, and the one it replaces is deleted. The answer carries the key.
 */
api.put("/r2", async (c) => {
  const requested = c.req.query("key") ?? "";
  if (!requested) return fail(c, 400, "Missing key", { key: ["Missing key"] });
  if (!requested.startsWith(`${me(c).id}/`)) return fail(c, 403, "The key is not under the signed-in user");
  if (!isOwnImageKey(requested, me(c).id))
    return fail(c, 400, "Invalid key", { key: ["Please use only lower-case letters and digits after the user id"] });
  let key: string;
  try {
    // Counted while it streams: a chunked upload is cut off at 5 MB, whatever Content-Length says.
    const body = await readBodyWithin(c.req.raw, MAX_IMAGE_BYTES);
    key = await storeProfileImage(c.env, me(c).id, body.buffer);
  } catch (error) {
    if (error instanceof BodyTooLarge) return fail(c, 413, IMAGE_TOO_LARGE);
    if (error instanceof ImageRejected)
      return fail(c, error.message.startsWith("Unsupported") ? 415 : 413, error.message);
    throw error;
  }
  await replaceProfileImage(c.env, c.executionCtx, me(c).id, key);
  return c.json({ success: true, error: null, key });
});

// Debtors -----------------------------------------------------------------------------------

api.get("/debtors", async (c) => {
  const denied = ownerMismatch(c, c.req.query("fb_uuid"));
  if (denied) return denied;
  const limit = queryInt(c.req.query("limit"), 200, 1, 500);
  const offset = queryInt(c.req.query("offset"), 0, 0, MAX_OFFSET);
  const rows = await listDebtors(getDb(c.env.DB), me(c).id, { limit, offset });
  return c.json(rows.map((d) => debtorToJson(debtorRowOf(d), me(c).id)));
});

writeRoutes("/debtors", debtorEntity);

// A debtor's other contacts (decisions/057): the same description as the debtor page's forms.
api.post("/debtors/contacts/add", async (c) => {
  const { messages } = contactEntity;
  const owned = await ownedBody(c);
  if ("error" in owned) return owned.error;
  const debtorId = v.safeParse(JsonIdSchema, owned.body.debtor_id);
  if (!debtorId.success) return fail(c, 400, messages.invalid, { debtor_id: [DEBTOR_MESSAGES.missingId] });
  const parsed = v.safeParse(contactEntity.schemas.json, owned.body);
  if (!parsed.success) return fail(c, 400, messages.invalid, fieldErrors(parsed.issues));
  return contactAnswer(
    c,
    () => contactEntity.add(scopeOf(c), debtorId.output, parsed.output),
    DEBTOR_MESSAGES.notFound,
  );
});

api.put("/debtors/contacts/edit", async (c) => {
  const { messages } = contactEntity;
  const owned = await ownedBody(c);
  if ("error" in owned) return owned.error;
  const id = parseId(owned.body);
  if (!id) return fail(c, 400, messages.invalid, { id: [messages.missingId] });
  const parsed = v.safeParse(contactEntity.schemas.json, owned.body);
  if (!parsed.success) return fail(c, 400, messages.invalid, fieldErrors(parsed.issues));
  return contactAnswer(c, () => contactEntity.edit(scopeOf(c), id, parsed.output), messages.notFound);
});

api.delete("/debtors/contacts/del", async (c) => {
  const { messages } = contactEntity;
  const owned = await ownedBody(c);
  if ("error" in owned) return owned.error;
  const id = parseId(owned.body);
  if (!id) return fail(c, 400, messages.invalid, { id: [messages.missingId] });
  if (!(await contactEntity.remove(scopeOf(c), id))) return fail(c, 404, messages.notFound);
  return c.json({ success: true, error: null });
});

/** A contact write's answer: the contact, 400 field errors, 403 at the bound, 404 not the owner's. */
async function contactAnswer(
  c: Ctx,
  write: () => Promise<Parameters<typeof contactToJson>[0] | undefined>,
  notFound: string,
) {
  try {
    const row = await write();
    if (!row) return fail(c, 404, notFound);
    return c.json({ success: true, error: null, data: contactToJson(row) });
  } catch (error) {
    if (error instanceof FieldsRefused) return fail(c, 400, contactEntity.messages.invalid, error.fieldErrors);
    if (error instanceof ContactLimitReached) return fail(c, 403, error.message);
    throw error;
  }
}

api.get("/debtors/:id", async (c) => {
  const id = Number(c.req.param("id"));
  const db = getDb(c.env.DB);
  const debtor = Number.isInteger(id) ? await getDebtor(db, me(c).id, id) : undefined;
  if (!debtor) return fail(c, 404, DEBTOR_MESSAGES.notFound);
  const others = await listContacts(db, me(c).id, debtor.id);
  // Its contacts: the primary (the debtor's own address) first, then the others (decisions/057).
  return c.json({
    ...debtorToJson(debtor, me(c).id),
    contacts: [primaryContactToJson(debtor), ...others.map((o) => ({ ...contactToJson(o), primary: false }))],
  });
});

// Payments -----------------------------------------------------------

api.get("/debtors/:id/payments", async (c) => {
  const denied = ownerMismatch(c, c.req.query("fb_uuid"));
  if (denied) return denied;
  const id = v.safeParse(JsonIdSchema, c.req.param("id"));
  const listed = id.success ? await listPayments(getDb(c.env.DB), me(c).id, id.output) : undefined;
  if (!listed) return fail(c, 404, DEBTOR_MESSAGES.notFound);
  return c.json(listed.payments.map(paymentToJson));
});

/**
 * The answer to a payment write: the payment and the debtor's balance after it, or its refusal with
 * the same errors the form shows (app/ledger/payment-entity.server.ts; a form-level one under `_`).
 */
function paymentAnswer(c: Ctx, written: PaymentWrite | PaymentWriteError, notFound: string) {
  const { messages } = paymentEntity;
  if ("error" in written) {
    if (written.error === "not-found") return fail(c, 404, notFound);
    const { formErrors, fieldErrors } = paymentEntity.refusalErrors(written);
    return fail(c, 400, messages.invalid, { ...fieldErrors, ...(formErrors ? { _: formErrors } : {}) });
  }
  return c.json({ success: true, error: null, ...paymentEntity.toJson(written) });
}

api.post("/payments/add", async (c) => {
  const { messages } = paymentEntity;
  const owned = await ownedBody(c);
  if ("error" in owned) return owned.error;
  const debtorId = v.safeParse(JsonIdSchema, owned.body.debtor_id);
  if (!debtorId.success) return fail(c, 400, messages.invalid, { debtor_id: [DEBTOR_MESSAGES.missingId] });
  const scope = scopeOf(c);
  const parsed = v.safeParse(paymentEntity.schemas.json(scope), owned.body);
  if (!parsed.success) return fail(c, 400, messages.invalid, fieldErrors(parsed.issues));
  const written = await paymentEntity.add(scope, debtorId.output, parsed.output);
  // Queued for the books (decisions/063): written there after the answer.
  if (!("error" in written) && written.books?.written) writeBackAfter(c.executionCtx, c.env, scope.ownerId);
  return paymentAnswer(c, written, DEBTOR_MESSAGES.notFound);
});

api.put("/payments/edit", async (c) => {
  const { messages } = paymentEntity;
  const owned = await ownedBody(c);
  if ("error" in owned) return owned.error;
  const id = parseId(owned.body);
  if (!id) return fail(c, 400, messages.invalid, { id: [messages.missingId] });
  const scope = scopeOf(c);
  const parsed = v.safeParse(paymentEntity.schemas.json(scope), owned.body);
  if (!parsed.success) return fail(c, 400, messages.invalid, fieldErrors(parsed.issues));
  return paymentAnswer(c, await paymentEntity.edit(scope, id, parsed.output), messages.notFound);
});

api.delete("/payments/del", async (c) => {
  const { messages } = paymentEntity;
  const owned = await ownedBody(c);
  if ("error" in owned) return owned.error;
  const id = parseId(owned.body);
  if (!id) return fail(c, 400, messages.invalid, { id: [messages.missingId] });
  return paymentAnswer(c, await paymentEntity.remove(scopeOf(c), id), messages.notFound);
});

// Invoices -----------------------------------------------------------

api.get("/debtors/:id/invoices", async (c) => {
  const denied = ownerMismatch(c, c.req.query("fb_uuid"));
  if (denied) return denied;
  const id = v.safeParse(JsonIdSchema, c.req.param("id"));
  const listed = id.success ? await listInvoices(getDb(c.env.DB), me(c).id, id.output) : undefined;
  if (!listed) return fail(c, 404, DEBTOR_MESSAGES.notFound);
  return c.json(listed.invoices.map(invoiceToJson));
});

/**
 * An invoice write's answer: the invoice and the debtor's balance after it; 404 when the debtor or
 * invoice is not the caller's; 400 with field errors for a rule only the server checks (the same
 * the form shows: an amount below what was paid, a number already used).
 */
async function invoiceAnswer(c: Ctx, write: () => Promise<InvoiceWrite | undefined>, notFound: string) {
  try {
    const written = await write();
    if (!written) return fail(c, 404, notFound);
    return c.json({ success: true, error: null, ...invoiceEntity.toJson(written) });
  } catch (error) {
    if (error instanceof FieldsRefused) return fail(c, 400, invoiceEntity.messages.invalid, error.fieldErrors);
    throw error;
  }
}

api.post("/invoices/add", async (c) => {
  const { messages } = invoiceEntity;
  const owned = await ownedBody(c);
  if ("error" in owned) return owned.error;
  const debtorId = v.safeParse(JsonIdSchema, owned.body.debtor_id);
  if (!debtorId.success) return fail(c, 400, messages.invalid, { debtor_id: [DEBTOR_MESSAGES.missingId] });
  const parsed = v.safeParse(invoiceEntity.schemas.json, owned.body);
  if (!parsed.success) return fail(c, 400, messages.invalid, fieldErrors(parsed.issues));
  const scope = scopeOf(c);
  return invoiceAnswer(c, () => invoiceEntity.add(scope, debtorId.output, parsed.output), DEBTOR_MESSAGES.notFound);
});

api.put("/invoices/edit", async (c) => {
  const { messages } = invoiceEntity;
  const owned = await ownedBody(c);
  if ("error" in owned) return owned.error;
  const id = parseId(owned.body);
  if (!id) return fail(c, 400, messages.invalid, { id: [messages.missingId] });
  const parsed = v.safeParse(invoiceEntity.schemas.json, owned.body);
  if (!parsed.success) return fail(c, 400, messages.invalid, fieldErrors(parsed.issues));
  const scope = scopeOf(c);
  return invoiceAnswer(c, () => invoiceEntity.edit(scope, id, parsed.output), messages.notFound);
});

api.put("/invoices/void", async (c) => {
  const { messages } = invoiceEntity;
  const owned = await ownedBody(c);
  if ("error" in owned) return owned.error;
  const id = parseId(owned.body);
  if (!id) return fail(c, 400, messages.invalid, { id: [messages.missingId] });
  const scope = scopeOf(c);
  return invoiceAnswer(c, () => invoiceEntity.void(scope, id), messages.notFound);
});

/** PUT /api/invoices/chase {id, chased}: false leaves the invoice out of reminders ("don't chase this one"). */
api.put("/invoices/chase", async (c) => {
  const { messages } = invoiceEntity;
  const owned = await ownedBody(c);
  if ("error" in owned) return owned.error;
  const id = parseId(owned.body);
  if (!id) return fail(c, 400, messages.invalid, { id: [messages.missingId] });
  const chased = (owned.body as { chased?: unknown }).chased;
  if (typeof chased !== "boolean") return fail(c, 400, messages.invalid, { chased: ["Send true or false"] });
  const scope = scopeOf(c);
  return invoiceAnswer(c, () => invoiceEntity.chase(scope, id, chased), messages.notFound);
});

// Organizations -------------------------------------------------------------------------------

api.get("/org", async (c) => {
  const denied = ownerMismatch(c, c.req.query("fb_uuid"));
  if (denied) return denied;
  const rows = await listOrganizations(getDb(c.env.DB), me(c).id);
  return c.json(rows.map((o) => organizationToJson(o, me(c).id)));
});

writeRoutes("/org", organizationEntity);

// Schedules ---------------------------------------------------
// Spec §7: the list by group and NamePrefix, one schedule by Name and group, its delete by Name and
// group. `group` is the owner's fb_uuid (403 when not the caller's); a Name that is not the caller's
// answers 404.

/** The spec's ScheduleExpression of a frequency (EventBridge Scheduler's syntax, in the schedule's zone). */
function scheduleExpression(s: Pick<ScheduleListRow, "frequency" | "nextRunAt" | "createdAt" | "timeZone">) {
  if (s.frequency === "daily") return "cron(0 10 * * ? *)";
  if (s.frequency === "weekly") return "cron(0 10 ? * MON *)";
  // One time: the local wall-clock instant it fires at.
  const at = s.nextRunAt ?? s.createdAt;
  const parts = dateTimeFormat("en-CA", {
    timeZone: s.timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  }).formatToParts(at);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "00";
  return `at(${part("year")}-${part("month")}-${part("day")}T${part("hour")}:${part("minute")}:${part("second")})`;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The spec's Schedule (§3: Name, State, dates, expression, zone, Input) with Dunly's own fields beside it. */
function scheduleToJson(s: ScheduleListRow, owner: { id: string; fullName: string; email: string }) {
  const template = getPreset(s.preset) ? templateForStep(s.preset as PresetId, s.templateStep) : null;
  return {
    Name: s.id,
    GroupName: owner.id,
    State: s.state,
    CreationDate: iso(s.createdAt),
    LastModificationDate: iso(s.updatedAt),
    ScheduleExpression: scheduleExpression(s),
    ScheduleExpressionTimezone: s.timeZone,
    Input: {
      receiverName: s.debtorName,
      receiverEmail: s.debtorEmail,
      senderName: s.organizationName ?? (owner.fullName || owner.email),
      senderEmail: owner.email,
      locale: "en",
      template,
      debtor: {
        id: s.debtorId,
        fb_uuid: owner.id,
        full_name: s.debtorName,
        email: s.debtorEmail,
        debt: fromCents(s.debtCents),
        paid: fromCents(s.paidCents),
        currency: s.currency,
        active_strategy: s.activeStrategy,
        status: s.debtorStatus,
      },
      senderCompany: s.organizationId === null ? null : { id: s.organizationId, name: s.organizationName },
    },
    preset: s.preset,
    frequency: s.frequency,
    due_date: s.dueDate,
    next_run_at: iso(s.nextRunAt),
    last_run_at: iso(s.lastRunAt),
    emails_sent: s.emailsSent,
    stopped_reason: s.stoppedReason,
    waiting: s.waiting,
  };
}

/** The schedule `Name` from the query: 400 with a field error when missing or malformed. */
function scheduleName(c: Ctx): { name: string } | { error: Response } {
  const { messages } = scheduleEntity;
  const parsed = v.safeParse(scheduleEntity.id, c.req.query("Name") ?? c.req.query("name"));
  return parsed.success
    ? { name: parsed.output }
    : { error: fail(c, 400, messages.invalid, { Name: [messages.missingName] }) };
}

api.get("/schedules", async (c) => {
  const denied = ownerMismatch(c, c.req.query("group")) ?? ownerMismatch(c, c.req.query("fb_uuid"));
  if (denied) return denied;
  // Every name starts with its owner's id: a prefix that cannot be one of the caller's is another user's.
  const namePrefix = c.req.query("NamePrefix") ?? "";
  if (namePrefix && !namePrefix.startsWith(me(c).id) && !me(c).id.startsWith(namePrefix)) {
    return fail(c, 403, "NamePrefix is not the signed-in user's");
  }
  if (namePrefix.length > 200) return fail(c, 400, "Invalid NamePrefix", { NamePrefix: ["NamePrefix is too long"] });
  // The API's own default, not the pages' (docs/decisions/009-list-page-size.md).
  const limit = queryInt(c.req.query("limit"), 50, 1, 500);
  const offset = queryInt(c.req.query("offset"), 0, 0, MAX_OFFSET);
  const rows = await listSchedules(getDb(c.env.DB), me(c).id, { limit, offset, namePrefix });
  return c.json(rows.map((s) => scheduleToJson(s, me(c))));
});

api.get("/schedule", async (c) => {
  const denied = ownerMismatch(c, c.req.query("group")) ?? ownerMismatch(c, c.req.query("fb_uuid"));
  if (denied) return denied;
  const named = scheduleName(c);
  if ("error" in named) return named.error;
  const schedule = await getScheduleDetails(getDb(c.env.DB), me(c).id, named.name);
  if (!schedule) return fail(c, 404, scheduleEntity.messages.notFound);
  return c.json(scheduleToJson(schedule, me(c)));
});

api.delete("/schedule", async (c) => {
  const denied = ownerMismatch(c, c.req.query("group")) ?? ownerMismatch(c, c.req.query("fb_uuid"));
  if (denied) return denied;
  const named = scheduleName(c);
  if ("error" in named) return named.error;
  // The schedule's delete, the form's operation: the row and its timeline event, then the alarm.
  if (!(await scheduleEntity.remove(scopeOf(c), named.name))) return fail(c, 404, scheduleEntity.messages.notFound);
  return c.json({ success: true, error: null });
});

// Any other /api path or method: a JSON 404 (not the HTML page React Router would answer with).
api.all("*", (c) => fail(c, 404, "Not found"));
api.onError((error, c) => {
  console.error("[dunly] API error", error);
  return c.json({ success: false, error: SOMETHING_WRONG }, 500);
});
