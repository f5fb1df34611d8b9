import * as v from "valibot";
import { missingFieldMessage } from "./missing";

/**
 * A debtor's other contact (decisions/057): name, e-mail, role, and whether it is copied (CC) on
 * the debtor's reminders. One schema for the debtor page's form and the JSON API.
 */

export const CONTACT_NAME_MESSAGE = "Please enter the contact's name";
export const CONTACT_EMAIL_MESSAGE = "Please enter a valid email";
export const CONTACT_ROLE_MAX = 100;
export const CONTACT_NAME_MAX = 200;
const ROLE_MESSAGE = `Please use at most ${CONTACT_ROLE_MAX} characters`;

const NameField = v.pipe(
  v.string(CONTACT_NAME_MESSAGE),
  v.trim(),
  v.nonEmpty(CONTACT_NAME_MESSAGE),
  v.maxLength(CONTACT_NAME_MAX, `Please use at most ${CONTACT_NAME_MAX} characters`),
);
const EmailField = v.pipe(
  v.string(CONTACT_EMAIL_MESSAGE),
  v.trim(),
  v.email(CONTACT_EMAIL_MESSAGE),
  v.maxLength(254, CONTACT_EMAIL_MESSAGE),
  v.toLowerCase(),
);
/** Optional free text ("Accounts payable"); blank: none. */
const RoleField = v.pipe(
  v.optional(v.nullable(v.string(ROLE_MESSAGE))),
  v.transform((s) => s?.trim() ?? ""),
  v.maxLength(CONTACT_ROLE_MAX, ROLE_MESSAGE),
  v.transform((s) => (s === "" ? null : s)),
);

const MISSING = missingFieldMessage({ name: CONTACT_NAME_MESSAGE, email: CONTACT_EMAIL_MESSAGE });

/**
 * The form: the "CC on reminders" checkbox sends "on" when ticked and nothing when not; a blank
 * role is none. (Conform drops blank fields before the schema runs, so the blanks are read after
 * the object's own checks.)
 */
export const ContactFormSchema = v.pipe(
  v.object(
    {
      name: NameField,
      email: EmailField,
      role: v.optional(v.pipe(v.string(ROLE_MESSAGE), v.trim(), v.maxLength(CONTACT_ROLE_MAX, ROLE_MESSAGE))),
      cc: v.optional(v.string()),
    },
    MISSING,
  ),
  v.transform(({ role, cc, ...rest }) => ({
    ...rest,
    role: role ? role : null,
    cc: cc === "on" || cc === "true" || cc === "1",
  })),
);

/** The JSON body: `cc` a boolean, absent: copied. */
export const ContactJsonSchema = v.object(
  {
    name: NameField,
    email: EmailField,
    role: RoleField,
    cc: v.optional(v.boolean("cc must be true or false"), true),
  },
  MISSING,
);

export type ContactInput = v.InferOutput<typeof ContactJsonSchema>;
