import { parseWithValibot } from "@conform-to/valibot";
import type * as v from "valibot";
import { describe, expect, it } from "vitest";
import * as auth from "./auth";
import * as contactRules from "./contact-rules";
import * as debtor from "./debtor";
import * as invoice from "./invoice";
import * as organization from "./organization";
import * as payment from "./payment";
import * as portal from "./portal";
import * as profile from "./profile";
import * as schedule from "./schedule";

type AnySchema = v.GenericSchema;
const isSchema = (value: unknown): value is AnySchema =>
  typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "schema";

/** Every schema the schema modules export, by name. */
const schemas = Object.entries({
  auth,
  contactRules,
  debtor,
  invoice,
  organization,
  payment,
  portal,
  profile,
  schedule,
}).flatMap(([file, exports]) =>
  Object.entries(exports)
    .filter(([, value]) => isSchema(value))
    .map(([name, value]) => ({ name: `${file}.${name}`, schema: value as AnySchema })),
);

/** Valibot's own wording ("Invalid key: Expected …", "Invalid type: …"), never meant for a user. */
const RAW = /^Invalid (key|type|input)\b/;

describe("a form post without the fields (a hand-made request)", () => {
  it("finds the schemas", () => {
    expect(schemas.length).toBeGreaterThan(10);
  });

  it.each(schemas)("$name answers each missing field with that field's own message", ({ schema }) => {
    for (const form of [new FormData(), formWith({ unrelated: "x" })]) {
      const messages = Object.values(errorsOf(parseWithValibot(form, { schema })) ?? {}).flat();
      expect(messages.filter((m) => typeof m === "string" && RAW.test(m))).toEqual([]);
    }
  });
});

describe("the sign-in and password forms", () => {
  it("name the missing field as the page does for an empty one", () => {
    const signIn = parseWithValibot(formWith({ pass: "secret" }), { schema: auth.PasswordSignInSchema });
    expect(errorsOf(signIn)).toEqual({ email: ["Email is required"], password: ["Please enter your password"] });
    const change = parseWithValibot(formWith({ new: "long enough", confirm: "long enough" }), {
      schema: auth.SetPasswordSchema,
    });
    expect(errorsOf(change)).toEqual({
      newPassword: ["Password must be at least 8 characters"],
      confirmPassword: ["Please repeat the new password"],
    });
  });
});

function formWith(fields: Record<string, string>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return form;
}

function errorsOf(submission: { status?: string; error?: Record<string, string[] | null> | null }) {
  return submission.status === "error" ? submission.error : undefined;
}
