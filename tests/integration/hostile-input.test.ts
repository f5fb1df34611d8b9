import { env } from "cloudflare:workers";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { paidClaimLink, portalLink } from "~/links/debtor-pages.server";
import { replyAddress } from "~/links/signed-links.server";
import { MAX_DRAINED_BYTES } from "~/platform/body-limit.server";
import { readConfig } from "~/platform/config.server";
import {
  addDebtor,
  addOrg,
  api,
  decodeTurbo,
  IMAGES,
  type Json,
  photoForm,
  postMultipart,
  snapshot,
} from "./data-helpers";
import { db, userRow } from "./fixtures";
import { ORIGIN, postForm, request, type SignedIn, signIn, uniqueEmail, uniqueIp } from "./helpers";
import { ACTIONS, act } from "./schedule-helpers";

/**
 * Property-based tests (fast-check): random and hostile input at every JSON API endpoint, every
 * form action, the pages' query strings and cookies. The answer is always 2xx or 4xx (3xx for a
 * page), a 4xx says why (field errors when the body was a form or a JSON object), and the other
 * account's rows and images are exactly what they were. Attacker B sends it all; A is the victim.
 */

const RUNS = 60;
const options = { numRuns: RUNS };

let a: SignedIn;
let b: SignedIn;
let victim: { debtorId: number; orgId: number; scheduleId: string; imageKey: string };
let before: Awaited<ReturnType<typeof snapshot>>;

beforeAll(async () => {
  a = await signIn(uniqueEmail("hostile-victim"));
  b = await signIn(uniqueEmail("hostile-attacker"));
  const debtor = await addDebtor(a.cookie, { full_name: "Victoria Victim", debt: 99.99 });
  const org = await addOrg(a.cookie, { name: "Victim Holdings" });
  expect((await postMultipart("/iam/info.data", photoForm(IMAGES.png), a.cookie)).status).toBe(200);
  const created = await act(
    { intent: "schedule-create", debtor_id: String(debtor.id), preset: "SINGLE_REMINDER", frequency: "weekly" },
    { cookie: a.cookie },
  );
  expect(created.status, created.text).toBe(200);
  // B owns records too, so ids of B's own rows are in play.
  const own = await addDebtor(b.cookie, { full_name: "Bert Own" });
  await addOrg(b.cookie, { name: "Bert Org" });
  await act(
    { intent: "schedule-create", debtor_id: String(own.id), preset: "SINGLE_REMINDER", frequency: "weekly" },
    { cookie: b.cookie },
  );
  before = await snapshot(a.userId);
  expect(before.schedules).toHaveLength(1);
  victim = {
    debtorId: debtor.id,
    orgId: org.id,
    scheduleId: before.schedules[0]!.id,
    imageKey: (await userRow(a.userId))!.img_key!,
  };
});

/** A's rows and images are byte for byte what they were before B's attempts. */
async function expectVictimUnchanged() {
  expect(await snapshot(a.userId)).toEqual(before);
}

// The cases found by hand ----------------------------------------------------------------------

describe("bad input that once answered 500", () => {
  const PAGES = ["/", "/dashboard", "/debtors-list", "/schedules-list", "/report", "/iam/info", "/pricing"];

  it("a malformed dunly_session or tz cookie: every page still answers", async () => {
    for (const cookie of [
      "dunly_session=%E0%A4%A",
      "tz=%E0%A4%A",
      `${b.cookie}; tz=%`,
      `tz=${"A/".repeat(60)}; ${b.cookie}`,
    ]) {
      for (const path of PAGES) {
        const res = await request(path, { headers: { Cookie: cookie } });
        await res.arrayBuffer();
        expect(res.status, `${path} with ${cookie}`).toBeLessThan(400);
      }
    }
  });

  it("?page=Infinity or 1e309 on the lists and offset/limit on the API", async () => {
    for (const n of ["Infinity", "1e309", "-Infinity", "1e20", "NaN"]) {
      for (const path of [`/debtors-list?page=${n}`, `/report?page=${n}`, `/schedules-list?page=${n}`]) {
        const res = await request(path, { headers: { Cookie: b.cookie } });
        await res.arrayBuffer();
        expect(res.status, path).toBe(200);
      }
      for (const q of [`offset=${n}`, `limit=${n}`, `offset=${n}&limit=${n}`]) {
        const res = await api("GET", `/debtors?${q}`, { cookie: b.cookie });
        expect(res.status, q).toBe(200);
        expect(Array.isArray(await res.json())).toBe(true);
      }
    }
  });

  it("a broken multipart body answers 400 with a message on every form", async () => {
    // A visitor posts the sign-in forms: their pages send a signed-in user on.
    const forms: [path: string, signedIn: boolean][] = [
      ["/iam/info", true],
      ["/iam/orgs", true],
      ["/debtors-list", true],
      ["/dashboard", true],
      ["/schedule", true],
      ["/schedules/actions", true],
      ["/?index", false],
      ["/sign-in/password", false],
      ["/auth/verify", false],
    ];
    for (const [path, signedIn] of forms) {
      const headers = new Headers({
        "Content-Type": "multipart/form-data; boundary=xyz",
        Origin: ORIGIN,
        "CF-Connecting-IP": uniqueIp(),
      });
      if (signedIn) headers.set("Cookie", b.cookie);
      // The dashboard's document answer is a redirect to its selected debtor; its action answers in .data.
      for (const target of path === "/dashboard" ? [dataPath(path)] : [path, dataPath(path)]) {
        const res = await request(target, { method: "POST", headers, body: "garbage garbage" });
        const text = await res.text();
        expect(res.status, `${target}: ${text.slice(0, 200)}`).toBe(400);
        expect(text).toContain("The form could not be read. Please reload the page and try again.");
      }
    }
  });

  it("a chunked 100 MB upload is cut off, not read whole: the API's at its limit, a page's form past what it reads to answer", async () => {
    /** A body of up to 100 chunks of 1 MB that counts what the Worker pulled. */
    function hundredMegabytes(prefix = new Uint8Array()) {
      const state = { pulled: 0 };
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (state.pulled === 100) return controller.close();
          state.pulled += 1;
          const chunk = new Uint8Array(1024 * 1024);
          if (state.pulled === 1) chunk.set(prefix);
          controller.enqueue(chunk);
        },
      });
      return { stream, state };
    }
    const put = hundredMegabytes(IMAGES.png);
    const res = await api("PUT", `/r2?key=${b.userId}/huge`, { cookie: b.cookie, raw: put.stream });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({
      success: false,
      error: "The image is too large. Please choose one of at most 5 MB.",
    });
    expect(put.state.pulled).toBeLessThan(20);

    const envelope = new TextEncoder().encode(
      '--xyz\r\nContent-Disposition: form-data; name="intent"\r\n\r\nprofile-photo\r\n--xyz\r\nContent-Disposition: form-data; name="photo"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n',
    );
    const form = hundredMegabytes(envelope);
    const headers = new Headers({
      "Content-Type": "multipart/form-data; boundary=xyz",
      Origin: ORIGIN,
      Cookie: b.cookie,
    });
    const photo = await decoded(await request("/iam/info.data", { method: "POST", headers, body: form.stream }));
    expect(photo.status).toBe(413);
    expect(photo.data).toMatchObject({
      intent: "profile-photo",
      ok: false,
      message: "The image is too large. Please choose one of at most 5 MB.",
    });
    // A page's form over its limit is read to its end so that a browser gets the answer, but only
    // up to MAX_DRAINED_BYTES in all (app/platform/body-limit.server.ts): then it is cut off.
    expect(form.state.pulled).toBeGreaterThan(MAX_DRAINED_BYTES / (1024 * 1024));
    expect(form.state.pulled).toBeLessThan(MAX_DRAINED_BYTES / (1024 * 1024) + 4);
  });

  it("an amount with more than two decimals is refused, not rounded", async () => {
    const message = "Please enter an amount with at most two decimals";
    for (const debt of [1.005, "1.005", 12.345]) {
      const res = await api("POST", "/debtors/add", {
        cookie: b.cookie,
        json: { full_name: "Dee Cimal", email: "dee@example.com", debt },
      });
      expect(res.status, String(debt)).toBe(400);
      expect(((await res.json()) as Json).errors).toEqual({ debt: [message] });
    }
    const form = await postPairs(
      "/dashboard",
      [
        ["intent", "debtor-add"],
        ["full_name", "Dee Cimal"],
        ["email", "dee@example.com"],
        ["debt", "1000.005"],
      ],
      b.cookie,
    );
    expect(form.status).toBe(400);
    expect(form.data.result.error).toEqual({ debt: [message] });
    const ok = await api("POST", "/debtors/add", {
      cookie: b.cookie,
      json: { full_name: "Dee Cimal", email: "dee@example.com", debt: "1.10" },
    });
    expect(((await ok.json()) as Json).data.debt).toBe(1.1);
  });
});

// Arbitraries ----------------------------------------------------------------------------------

const NASTY = [
  "",
  " ",
  "0",
  "-1",
  "1",
  "1.005",
  "0.1e1",
  "NaN",
  "Infinity",
  "-Infinity",
  "1e309",
  "-1e309",
  "1e21",
  "9007199254740993",
  "0x1F",
  "1_000",
  "null",
  "undefined",
  "true",
  "[]",
  "{}",
  "[object Object]",
  "__proto__",
  "constructor",
  "<script>alert(1)</script>",
  "' OR '1'='1",
  '"; DROP TABLE debtors; --',
  "%E0%A4%A",
  "%",
  "\u0000",
  "\uD800",
  "\u202Eevil",
  "😀".repeat(50),
  "Ω≈ç√∫ 中文 עברית",
  "a@b",
  "x@example.com",
  "2026-02-30",
  "Etc/GMT+99",
  "America/New_York",
  "FRIENDLY_REMINDER",
  "SINGLE_REMINDER",
  "daily",
  "now",
  "company",
];

/** Numbers as text: any double (NaN, ±Infinity, 1e308, -0), huge integers, exponents, hex. */
function numberishArb() {
  return fc.oneof(
    fc.double().map(String),
    fc.bigInt().map(String),
    fc.constantFrom(
      "Infinity",
      "-Infinity",
      "1e309",
      "1e21",
      "9223372036854775808",
      "-9223372036854775809",
      "0x7fffffff",
    ),
    fc.tuple(fc.integer({ min: -9, max: 9 }), fc.integer({ min: -400, max: 400 })).map(([m, e]) => `${m}e${e}`),
  );
}

/** Strings a form or query could carry: nasty constants, A's and B's ids, random text, huge numbers, long strings. */
function textArb() {
  const ids = [
    String(victim.debtorId),
    String(victim.orgId),
    victim.scheduleId,
    victim.imageKey,
    a.userId,
    a.email,
    b.userId,
  ];
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...NASTY, ...ids) },
    { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
    { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }) },
    { weight: 2, arbitrary: numberishArb() },
    { weight: 1, arbitrary: fc.integer({ min: 200, max: 120_000 }).map((n) => "x".repeat(n)) },
  );
}

/** Any JSON value: hostile strings and numbers, booleans, null, arrays and nested objects. */
function jsonValueArb() {
  const text = textArb();
  const { value } = fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: "small", maxDepth: 3 },
      text,
      fc.double(),
      fc.integer(),
      fc.constantFrom(1e308, -1e308, 2 ** 53 + 2, -0, 0.1 + 0.2, 1.005, 100.001),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie("value"), { maxLength: 4 }),
      fc.dictionary(fc.string({ maxLength: 8 }), tie("value"), { maxKeys: 4 }),
    ),
  }));
  return value;
}

type JsonBody = { object: boolean; text: string };

/** A request body: mostly a JSON object with the endpoint's fields (some missing), else any JSON or not JSON at all. */
function jsonBodyArb(fields: string[]): fc.Arbitrary<JsonBody> {
  const value = jsonValueArb();
  const known = fc.record(Object.fromEntries([...fields, "id", "fb_uuid"].map((f) => [f, value])), {
    requiredKeys: [],
  });
  const extra = fc.dictionary(fc.string({ maxLength: 10 }), value, { maxKeys: 3 });
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .tuple(extra, known)
        .map(([x, k]) => ({ object: true, text: JSON.stringify(Object.assign(Object.create(null), x, k)) })),
    },
    { weight: 1, arbitrary: value.map((v) => ({ object: false, text: JSON.stringify(v) ?? "" })) },
    { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 200 }).map((t) => ({ object: false, text: t })) },
  );
}

type Pairs = [string, string][];

/** Form fields: the intent (a real one or anything), the known fields with hostile values (some repeated, some missing), stray keys. */
function formArb(intents: string[], fields: string[]): fc.Arbitrary<Pairs> {
  const text = textArb();
  const values = fc.oneof(
    { weight: 4, arbitrary: text.map((t) => [t]) },
    { weight: 1, arbitrary: fc.array(text, { maxLength: 4 }) },
  );
  const intent = intents.length
    ? fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...intents) }, { weight: 1, arbitrary: text })
    : fc.constant(undefined);
  return fc
    .tuple(
      intent,
      fc.record(Object.fromEntries(fields.map((f) => [f, values])), { requiredKeys: [] }),
      fc.array(fc.tuple(fc.string({ maxLength: 10 }), text), { maxLength: 3 }),
    )
    .map(([i, known, stray]) => {
      const pairs: Pairs = i === undefined ? [] : [["intent", i]];
      for (const [k, vs] of Object.entries(known)) for (const v of vs ?? []) pairs.push([k, v]);
      return [...pairs, ...stray];
    });
}

/** A cookie value as a browser could send it: printable ASCII, percent-escapes good or broken. */
function cookieValueArb() {
  return fc.oneof(
    textArb().map((t) => encode(t.slice(0, 4000))),
    fc.string({ unit: "binary-ascii", maxLength: 80 }).map((s) => s.replace(/[^\x21-\x7e]|;|,/g, "")),
    fc.constantFrom("%", "%%", "%ZZ", "%E0%A4%A", "%C0%80", "\\", '"quoted"'),
  );
}

// Requests ---------------------------------------------------------------------------------------

/** Percent-encodes any string, lone surrogates too (as U+FFFD, like a browser); encodeURIComponent throws on them. */
function encode(value: string) {
  return new URLSearchParams({ v: value }).toString().slice(2);
}

/** The single-fetch path React Router's fetchers post to. */
function dataPath(path: string) {
  const url = new URL(path, ORIGIN);
  return `${url.pathname === "/" ? "/_" : url.pathname}.data${url.search}`;
}

/** A fetcher's form POST (urlencoded, repeated keys kept), decoded. */
async function postPairs(path: string, pairs: Pairs, cookie?: string) {
  const headers = new Headers({
    "Content-Type": "application/x-www-form-urlencoded",
    Origin: ORIGIN,
    "CF-Connecting-IP": uniqueIp(),
  });
  if (cookie) headers.set("Cookie", cookie);
  const res = await request(dataPath(path), { method: "POST", headers, body: new URLSearchParams(pairs).toString() });
  return decoded(res);
}

async function decoded(res: Response) {
  const type = res.headers.get("Content-Type") ?? "";
  const body: Json = type.includes("text/x-script") ? await decodeTurbo(res) : await res.text();
  return { status: res.status, data: body?.data as Json, body };
}

/** What a form answer must be: 2xx or 4xx, and a 4xx says why. */
function expectFormAnswer(what: string, answer: { status: number; data: Json; body: Json }) {
  const shown = `${what} → ${answer.status} ${JSON.stringify(answer.body)?.slice(0, 300)}`;
  expect(answer.status >= 200 && answer.status < 500 && (answer.status < 300 || answer.status >= 400), shown).toBe(
    true,
  );
  if (answer.status >= 400) {
    expect(answer.data?.ok, shown).toBe(false);
    const fieldErrors = Object.keys(answer.data?.result?.error ?? {}).length;
    const formErrors = answer.data?.result?.error?.[""]?.length ?? 0;
    expect(Boolean(answer.data?.message) || fieldErrors + formErrors > 0, shown).toBe(true);
  }
}

/** What an API answer must be: JSON, 2xx or 4xx; a 4xx has an error, a 400 for a JSON object field errors. */
async function expectApiAnswer(what: string, res: Response, object: boolean) {
  const text = await res.text();
  const shown = `${what} → ${res.status} ${text.slice(0, 300)}`;
  expect(res.status >= 200 && res.status < 500 && (res.status < 300 || res.status >= 400), shown).toBe(true);
  expect(res.headers.get("Content-Type") ?? "", shown).toContain("application/json");
  if (res.status < 400) return;
  const body = JSON.parse(text);
  expect(body.success, shown).toBe(false);
  expect(typeof body.error, shown).toBe("string");
  if (object && res.status === 400) expect(Object.keys(body.errors ?? {}).length, shown).toBeGreaterThan(0);
}

/** The fields every debtor write posts, in the order the forms post them. */
const DEBTOR_FIELDS = ["kind", "full_name", "email", "debt", "active_strategy", "time_zone"];

// The JSON API ------------------------------------------------------------------------------------

describe("hostile input: the JSON API never answers 500 and leaves other accounts alone", () => {
  const DEBTOR = [...DEBTOR_FIELDS, "invoice_number", "currency", "due_on", "allow_duplicate"];
  const PAYMENT = ["debtor_id", "amount", "paid_on", "note", "invoice_id"];
  const INVOICE = ["debtor_id", "number", "amount", "currency", "issued_on", "due_on"];
  const WRITES: [method: string, path: string, fields: string[]][] = [
    ["POST", "/debtors/add", DEBTOR],
    ["PUT", "/debtors/edit", DEBTOR],
    ["DELETE", "/debtors/del", []],
    ["POST", "/org/add", ["name", "address"]],
    ["PUT", "/org/edit", ["name", "address"]],
    ["DELETE", "/org/del", []],
    ["POST", "/payments/add", PAYMENT],
    ["PUT", "/payments/edit", PAYMENT],
    ["DELETE", "/payments/del", []],
    ["POST", "/invoices/add", INVOICE],
    ["PUT", "/invoices/edit", INVOICE],
    ["PUT", "/invoices/void", []],
    ["POST", "/profile/add", ["full_name"]],
    ["PUT", "/profile/edit", ["full_name"]],
    ["PUT", "/profile/changeImg", ["img"]],
  ];

  for (const [method, path, fields] of WRITES) {
    it(`${method} /api${path}`, async () => {
      await fc.assert(
        fc.asyncProperty(jsonBodyArb(fields), fc.boolean(), async (body, typed) => {
          const headers: Record<string, string> = typed ? { "Content-Type": "application/json" } : {};
          const res = await api(method, path, { cookie: b.cookie, raw: body.text, headers });
          await expectApiAnswer(`${method} ${path} ${body.text.slice(0, 200)}`, res, body.object);
        }),
        options,
      );
      await expectVictimUnchanged();
    });
  }

  it("GET /api/debtors, /api/org, /api/profile with hostile fb_uuid, limit and offset", async () => {
    const text = textArb();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("/debtors", "/org", "/profile"),
        fc.record(
          { fb_uuid: text, limit: fc.oneof(numberishArb(), text), offset: fc.oneof(numberishArb(), text) },
          {
            requiredKeys: [],
          },
        ),
        async (path, query) => {
          const qs = new URLSearchParams(query as Record<string, string>).toString();
          const res = await api("GET", `${path}?${qs}`, { cookie: b.cookie });
          await expectApiAnswer(`GET ${path}?${qs}`, res, false);
        },
      ),
      options,
    );
  });

  it("GET /api/debtors/:id and /api/r2/getPresignedUrl with hostile ids and keys", async () => {
    const text = textArb();
    await fc.assert(
      fc.asyncProperty(text, text, async (id, key) => {
        const byId = await api("GET", `/debtors/${encode(id.slice(0, 2000)) || "x"}`, { cookie: b.cookie });
        await expectApiAnswer(`GET /debtors/${id.slice(0, 80)}`, byId, false);
        const signed = await api("GET", `/r2/getPresignedUrl?key=${encode(key)}`, { cookie: b.cookie });
        await expectApiAnswer(`GET /r2/getPresignedUrl?key=${key.slice(0, 80)}`, signed, false);
      }),
      options,
    );
    await expectVictimUnchanged();
  });

  it("PUT /api/r2 with hostile keys and bodies", async () => {
    const key = fc.oneof(
      textArb(),
      fc.stringMatching(/^[a-z0-9]{1,12}$/).map((name) => `${b.userId}/${name}`),
      fc.constantFrom(victim.imageKey, `${a.userId}/evil`),
    );
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 2048 }),
      fc.uint8Array({ maxLength: 512 }).map((tail) => new Uint8Array([...IMAGES.png, ...tail])),
    );
    await fc.assert(
      fc.asyncProperty(key, bytes, async (k, body) => {
        const res = await api("PUT", `/r2?key=${encode(k)}`, { cookie: b.cookie, raw: body });
        await expectApiAnswer(`PUT /r2?key=${k.slice(0, 80)} (${body.byteLength} bytes)`, res, false);
      }),
      options,
    );
    await expectVictimUnchanged();
  });
});

// Form actions ------------------------------------------------------------------------------------

describe("hostile input: form actions never answer 500 and leave other accounts alone", () => {
  const SCHEDULE = [
    "id",
    "ids",
    "kind",
    "organization_id",
    "debtor_id",
    "preset",
    "due_date",
    "frequency",
    "time_zone",
  ];
  const FORMS: { path: string; intents: string[]; fields: string[]; signedIn: boolean }[] = [
    {
      path: "/dashboard",
      intents: [
        "debtor-add",
        "debtor-edit",
        "debtor-delete",
        "payment-add",
        "payment-edit",
        "payment-delete",
        "debtor-resume",
        "debtor-consent",
        "invoice-add",
        "invoice-edit",
        "invoice-void",
        "debtor-add-invoice",
      ],
      fields: [
        "id",
        ...DEBTOR_FIELDS,
        "debtor_id",
        "amount",
        "paid_on",
        "note",
        "confirm",
        "number",
        "currency",
        "issued_on",
        "due_on",
        "invoice_number",
        "invoice_id",
        "allow_duplicate",
      ],
      signedIn: true,
    },
    {
      path: ACTIONS,
      intents: [
        "schedule-create",
        "schedule-update",
        "schedule-delete",
        "schedule-send-now",
        "debtor-resend",
        "schedule-pause",
        "schedule-resume",
        "schedule-test-send",
      ],
      fields: SCHEDULE,
      signedIn: true,
    },
    { path: "/schedule", intents: ["schedule-create"], fields: [...SCHEDULE, "redirectTo"], signedIn: true },
    {
      path: "/iam/orgs",
      intents: ["org-add", "org-edit", "org-delete"],
      fields: ["id", "name", "address"],
      signedIn: true,
    },
    {
      path: "/debtors/import",
      intents: ["import-preview", "import-confirm"],
      // The preview's column mapping: a column the file has, one it does not, the mapping previewed.
      fields: ["csv", "columns[0]", "columns[7]", "previewed"],
      signedIn: true,
    },
    {
      path: "/iam/info",
      intents: ["profile-name", "set-password", "profile-photo", "contact-rules", "account-delete"],
      fields: [
        "confirm_email",
        "full_name",
        "currentPassword",
        "newPassword",
        "confirmPassword",
        "photo",
        "start_hour",
        "end_hour",
        "max_per_week",
      ],
      signedIn: true,
    },
    { path: "/?index", intents: [], fields: ["email", "redirectTo"], signedIn: false },
    { path: "/sign-in/password", intents: [], fields: ["email", "password", "redirectTo"], signedIn: false },
    { path: "/auth/verify", intents: [], fields: ["token"], signedIn: false },
  ];

  for (const form of FORMS) {
    it(`POST ${form.path}${form.intents.length ? ` (${form.intents.join(", ")})` : ""}`, async () => {
      await fc.assert(
        fc.asyncProperty(formArb(form.intents, form.fields), async (pairs) => {
          const answer = await postPairs(form.path, pairs, form.signedIn ? b.cookie : undefined);
          expectFormAnswer(`POST ${form.path} ${JSON.stringify(pairs).slice(0, 300)}`, answer);
        }),
        options,
      );
      await expectVictimUnchanged();
    });
  }

  it("POST /iam/info with hostile photo uploads", async () => {
    const file = fc.record({
      bytes: fc.oneof(
        fc.uint8Array({ maxLength: 4096 }),
        fc.uint8Array({ maxLength: 512 }).map((tail) => new Uint8Array([...IMAGES.jpeg, ...tail])),
      ),
      name: textArb().map((t) => t.slice(0, 300)),
      type: fc.constantFrom("image/png", "image/jpeg", "text/html", "application/octet-stream", ""),
      intent: fc.oneof(fc.constant("profile-photo"), textArb()),
    });
    await fc.assert(
      fc.asyncProperty(file, async ({ bytes, name, type, intent }) => {
        const form = new FormData();
        form.set("intent", intent);
        form.set("photo", new File([bytes], name, { type }));
        const answer = await decoded(await postMultipart("/iam/info.data", form, b.cookie));
        expectFormAnswer(`photo ${name.slice(0, 40)} ${type} (${bytes.byteLength} bytes)`, answer);
      }),
      options,
    );
    await expectVictimUnchanged();
  });

  it("POST /invoices/:id/document with hostile uploads, ids and intents: never a 500, nothing of A's changes", async () => {
    const invoiceOf = async (ownerId: string) =>
      (await env.DB.prepare("SELECT id FROM invoices WHERE owner_id = ? ORDER BY id LIMIT 1")
        .bind(ownerId)
        .first<{ id: number }>())!.id;
    const ids = [String(await invoiceOf(a.userId)), String(await invoiceOf(b.userId)), "0", "-1", "1e9", "abc"];
    const upload = fc.record({
      id: fc.oneof(
        fc.constantFrom(...ids),
        textArb().map((t) => encode(t.slice(0, 40)) || "x"),
      ),
      bytes: fc.oneof(
        fc.uint8Array({ maxLength: 4096 }),
        fc
          .uint8Array({ maxLength: 512 })
          .map((tail) => new Uint8Array([...new TextEncoder().encode("%PDF-1.7\n"), ...tail])),
      ),
      name: textArb().map((t) => t.slice(0, 300)),
      type: fc.constantFrom("application/pdf", "text/html", "application/octet-stream", ""),
      intent: fc.oneof(fc.constantFrom("invoice-document-attach", "invoice-document-remove"), textArb()),
    });
    await fc.assert(
      fc.asyncProperty(upload, async ({ id, bytes, name, type, intent }) => {
        const form = new FormData();
        form.set("intent", intent);
        form.set("document", new File([bytes], name, { type }));
        const res = await postMultipart(`/invoices/${id}/document.data`, form, b.cookie);
        await res.arrayBuffer();
        expect(res.status, `document ${id} ${name.slice(0, 40)} ${type} → ${res.status}`).toBeLessThan(500);
      }),
      options,
    );
    expect((await env.DOCUMENTS.list({ prefix: `${a.userId}/` })).objects).toEqual([]);
    await expectVictimUnchanged();
  });

  it("a body that is no form answers 400 with a message, never 500", async () => {
    const paths = ["/dashboard", "/iam/orgs", "/iam/info", "/?index", "/sign-in/password", "/auth/verify"];
    const contentType = fc.oneof(
      fc
        .string({ unit: "binary-ascii", maxLength: 20 })
        .map((b) => `multipart/form-data; boundary=${b.replace(/[^\x21-\x7e]/g, "") || "x"}`),
      fc.constantFrom("multipart/form-data", "text/plain", "application/json", "application/octet-stream"),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...paths),
        contentType,
        fc.string({ unit: "binary", maxLength: 300 }),
        async (path, type, body) => {
          const signedIn = !["/?index", "/sign-in/password", "/auth/verify"].includes(path);
          const headers = new Headers({ "Content-Type": type, Origin: ORIGIN, "CF-Connecting-IP": uniqueIp() });
          if (signedIn) headers.set("Cookie", b.cookie);
          const res = await request(dataPath(path), { method: "POST", headers, body });
          expectFormAnswer(`POST ${path} as ${type}: ${body.slice(0, 80)}`, await decoded(res));
        },
      ),
      options,
    );
    await expectVictimUnchanged();
  });
});

// Pages -------------------------------------------------------------------------------------------

describe("hostile input: pages never answer 500 for any query string or cookie", () => {
  it("query strings and cookies (session, tz, toast)", async () => {
    const text = textArb();
    const paths = fc.constantFrom(
      "/",
      "/dashboard",
      "/debtors-list",
      "/schedules-list",
      "/schedule",
      "/report",
      "/iam/info",
      "/iam/orgs",
      "/pricing",
      "/auth/verify",
      "/404",
      "/schedule/preview",
      "/debtors/1",
      "/debtors/abc",
      "/debtors/1/timeline",
      "/debtors/options",
      "/debtors/import",
      "/debtors.csv",
      "/invoices.csv",
      "/report.csv",
      "/report/archive/2025-01",
      "/report/archive/..%2F2025-01",
      "/account-data.json",
      "/d/abc.def/pay",
      "/u/abc.def",
      "/p/abc.def",
      "/d/abc.def",
    );
    const query = fc.record(
      {
        page: text,
        debtor: text,
        period: text,
        redirectTo: text,
        token: text,
        template: text,
        tone: text,
        q: text,
        sort: text,
        dir: text,
        debtor_id: text,
        organization_id: text,
        due_date: text,
      },
      { requiredKeys: [] },
    );
    const cookies = fc.record(
      { dunly_session: cookieValueArb(), tz: cookieValueArb(), dunly_toast: cookieValueArb() },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(paths, query, cookies, fc.boolean(), fc.boolean(), async (path, q, c, signedIn, data) => {
        const qs = new URLSearchParams(q as Record<string, string>).toString();
        const jar = Object.entries(c).map(([k, v]) => `${k}=${v}`);
        // B's own session first (it wins) or after the hostile one.
        if (signedIn) jar.splice(Math.floor(jar.length / 2), 0, b.cookie);
        const target = `${data ? dataPath(path) : path}?${qs}`;
        const res = await request(target, { headers: { Cookie: jar.join("; ") } });
        await res.arrayBuffer();
        expect(res.status, `GET ${target.slice(0, 300)} with ${jar.join("; ").slice(0, 300)}`).toBeLessThan(500);
      }),
      { numRuns: RUNS * 2 },
    );
  });

  it("image URLs with hostile keys and signatures", async () => {
    const text = textArb();
    await fc.assert(
      fc.asyncProperty(text, text, text, async (key, expires, sig) => {
        const path = `/images/${encode(key.slice(0, 500)) || "x"}?${new URLSearchParams({ expires, sig })}`;
        const res = await request(path);
        await res.arrayBuffer();
        expect(res.status, path.slice(0, 300)).toBeLessThan(500);
      }),
      options,
    );
  });
});

// The surfaces added since: the debtor's page, Stripe's webhooks, inbound replies, deletion and export

describe("hostile input: the debtor's page, the webhooks, inbound replies, deletion and export", () => {
  const NEW_RUNS = 30;
  let links: { portal: string; paid: string; reply: string };
  let own: { portal: string; reply: string };

  /** A's replies: none may appear without a valid reply address. */
  const repliesOfA = async () =>
    (await env.DB.prepare("SELECT count(*) AS n FROM debtor_replies WHERE owner_id = ?")
      .bind(a.userId)
      .first<{ n: number }>())!.n;

  /** A token of A's debtor with its signature changed (same length and alphabet): a forgery. */
  const forged = (path: string, at: number) => {
    const i = path.length - 1 - (at % 40);
    return `${path.slice(0, i)}${path[i] === "A" ? "B" : "A"}${path.slice(i + 1)}`;
  };

  beforeAll(async () => {
    const config = readConfig(env);
    const debtor = { id: victim.debtorId, ownerId: a.userId, optOutKey: null };
    links = {
      portal: new URL(await portalLink(db(), config, debtor)).pathname,
      paid: new URL(await paidClaimLink(db(), config, debtor)).pathname,
      reply: (await replyAddress(db(), config, debtor))!,
    };
    const mine = await addDebtor(b.cookie, { full_name: "Bert Portal" });
    const bDebtor = { id: mine.id as number, ownerId: b.userId, optOutKey: null };
    own = {
      portal: new URL(await portalLink(db(), config, bDebtor)).pathname,
      reply: (await replyAddress(db(), config, bDebtor))!,
    };
    // The snapshot now includes the debtors' link keys just made.
    before = await snapshot(a.userId);
  });

  const PORTAL_FIELDS = [
    "invoice",
    "currency",
    "promised_on",
    "reason",
    "session_id",
    "invoices",
    "amount",
    "paid_on",
    "reference",
  ];
  const PORTAL_INTENTS = ["portal-pay", "portal-paid", "portal-promise", "portal-dispute", "portal-opt-out"];

  it("POST /d/<token> (document or fetcher) with a forged or hostile token: 404, nothing changes", async () => {
    const token = fc.oneof(
      fc.nat().map((i) => forged(links.portal, i)),
      textArb().map((t) => `/d/${encode(t.slice(0, 200)) || "x"}`),
    );
    await fc.assert(
      fc.asyncProperty(token, formArb(PORTAL_INTENTS, PORTAL_FIELDS), fc.boolean(), async (path, pairs, data) => {
        const target = data ? dataPath(path) : path;
        const res = await postForm(target, pairs);
        await res.arrayBuffer();
        const shown = `POST ${target.slice(0, 200)} ${JSON.stringify(pairs).slice(0, 200)} → ${res.status}`;
        expect(res.status, shown).toBeGreaterThanOrEqual(400);
        expect(res.status, shown).toBeLessThan(500);
      }),
      { numRuns: NEW_RUNS },
    );
    await expectVictimUnchanged();
  });

  it("the debtor's own page with hostile forms: never a 500", async () => {
    await fc.assert(
      fc.asyncProperty(formArb(PORTAL_INTENTS, PORTAL_FIELDS), fc.boolean(), async (pairs, data) => {
        const res = await postForm(data ? dataPath(own.portal) : own.portal, pairs);
        await res.arrayBuffer();
        expect(res.status, `${JSON.stringify(pairs).slice(0, 300)} → ${res.status}`).toBeLessThan(500);
      }),
      { numRuns: NEW_RUNS },
    );
    await expectVictimUnchanged();
  });

  it("\"I've paid\" on the debtor's own /p link with hostile claims: never a 500, A's debtor untouched", async () => {
    const config = readConfig(env);
    const mine = await addDebtor(b.cookie, { full_name: "Bert Claims" });
    const paid = new URL(
      await paidClaimLink(db(), config, { id: mine.id as number, ownerId: b.userId, optOutKey: null }),
    ).pathname;
    await fc.assert(
      fc.asyncProperty(formArb([], ["invoices", "amount", "currency", "paid_on", "reference"]), async (pairs) => {
        const res = await postForm(paid, pairs);
        await res.arrayBuffer();
        expect(res.status, `${JSON.stringify(pairs).slice(0, 300)} → ${res.status}`).toBeLessThan(500);
      }),
      { numRuns: NEW_RUNS },
    );
    await expectVictimUnchanged();
  });

  it("GET the debtor's links with forged tokens and hostile query strings: never a 500, never A's page", async () => {
    const path = fc.oneof(
      fc.nat().map((i) => forged(links.portal, i)),
      fc.nat().map((i) => forged(links.paid, i)),
      fc.constant(`${links.portal}/pay`),
    );
    await fc.assert(
      fc.asyncProperty(path, textArb(), textArb(), async (p, done, session) => {
        const res = await request(`${p}?${new URLSearchParams({ done, session_id: session })}`);
        const text = await res.text();
        expect(res.status, p).toBeLessThan(500);
        if (p !== `${links.portal}/pay`) expect(res.status, p).toBe(404);
        expect(text).not.toContain("Victoria Victim");
      }),
      { numRuns: NEW_RUNS },
    );
    await expectVictimUnchanged();
  });

  it("POST /webhooks/stripe/connect and /billing with hostile bodies and signatures: 4xx, nothing changes", async () => {
    const signature = fc.oneof(
      textArb(),
      fc
        .tuple(fc.integer({ min: 0, max: 2 ** 33 }), fc.stringMatching(/^[0-9a-f]{64}$/))
        .map(([t, v1]) => `t=${t},v1=${v1}`),
      fc.constant(""),
    );
    const body = fc.oneof(
      jsonValueArb().map((v) => JSON.stringify(v) ?? ""),
      fc.constant(
        JSON.stringify({
          id: "evt_forged",
          object: "event",
          type: "checkout.session.completed",
          data: { object: { id: "cs_x", metadata: { debtorId: String(victim.debtorId), ownerId: a.userId } } },
        }),
      ),
      fc.string({ unit: "binary", maxLength: 300 }),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("connect", "billing"), body, signature, async (endpoint, payload, sig) => {
        const res = await request(`/webhooks/stripe/${endpoint}`, {
          method: "POST",
          headers: {
            "Content-Type": "application/json",
            "Stripe-Signature": sig.replace(/[^\x20-\x7e]/g, "").slice(0, 2000),
          },
          body: payload,
        });
        const shown = `${endpoint} ${sig.slice(0, 80)} ${payload.slice(0, 120)} → ${res.status} ${(await res.text()).slice(0, 200)}`;
        expect(res.status, shown).toBeGreaterThanOrEqual(400);
        expect(res.status, shown).toBeLessThan(500);
      }),
      { numRuns: NEW_RUNS },
    );
    await expectVictimUnchanged();
  });

  it("inbound replies (POST /dev/inbound, the email() handler's receiveReply) with hostile addresses and messages: never a 500, nothing for A without A's address", async () => {
    const repliesBefore = await repliesOfA();
    const to = fc.oneof(
      fc.nat().map((i) => {
        const at = links.reply.indexOf("@");
        const j = at - 1 - (i % 26);
        return `${links.reply.slice(0, j)}${links.reply[j] === "a" ? "b" : "a"}${links.reply.slice(j + 1)}`;
      }),
      textArb(),
      fc.constant(own.reply),
    );
    const raw = fc
      .oneof(
        textArb(),
        fc.string({ unit: "binary", maxLength: 400 }),
        fc
          .tuple(textArb(), textArb(), textArb())
          .map(([from, subject, body]) => `From: ${from}\r\nSubject: ${subject}\r\n\r\n${body}\r\n`),
        // (The size limits have their own tests in replies.test.ts: kept short here, for the run time.)
      )
      .map((m) => m.slice(0, 4000));
    await fc.assert(
      fc.asyncProperty(to, raw, async (address, message) => {
        const res = await request(`/dev/inbound?to=${encode(address.slice(0, 400))}`, {
          method: "POST",
          headers: { Origin: ORIGIN, "Content-Type": "message/rfc822" },
          body: message,
        });
        const shown = `${address.slice(0, 80)} ${message.slice(0, 80)} → ${res.status} ${(await res.text()).slice(0, 200)}`;
        expect([202, 413, 422], shown).toContain(res.status);
        if (address !== own.reply) expect(res.status, shown).not.toBe(202);
      }),
      { numRuns: NEW_RUNS },
    );
    expect(await repliesOfA()).toBe(repliesBefore);
    await expectVictimUnchanged();
  });

  it("Delete account and Export my data without a valid session: nothing deleted, nothing exported", async () => {
    const cookie = fc.oneof(
      cookieValueArb().map((v) => `dunly_session=${v}`),
      fc.constant(""),
      fc.constant(`dunly_session=${a.userId}`),
    );
    const typed = fc.oneof(fc.constantFrom(a.email, b.email, a.email.toUpperCase()), textArb());
    await fc.assert(
      fc.asyncProperty(cookie, typed, fc.boolean(), async (jar, email, data) => {
        const path = data ? dataPath("/iam/info") : "/iam/info";
        const res = await postForm(
          path,
          { intent: "account-delete", confirm_email: email },
          { cookie: jar || undefined },
        );
        await res.arrayBuffer();
        expect(res.status, `${jar.slice(0, 80)} → ${res.status}`).toBeLessThan(500);
        const exported = await request("/account-data.json", { headers: jar ? { Cookie: jar } : {} });
        const text = await exported.text();
        expect(exported.status).toBe(302);
        expect(text).not.toContain(a.userId);
      }),
      { numRuns: NEW_RUNS },
    );
    // A cross-site form post (B's cookie, another origin) is refused before anything runs.
    const crossSite = await request("/iam/info", {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Origin: "https://evil.example",
        Cookie: b.cookie,
      },
      body: new URLSearchParams({ intent: "account-delete", confirm_email: b.email }).toString(),
    });
    expect(crossSite.status).toBe(403);
    expect(await userRow(b.userId)).not.toBeNull();
    await expectVictimUnchanged();
  });
});
