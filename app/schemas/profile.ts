import * as v from "valibot";
import { missingFieldMessage } from "./missing";

const USER_NAME_MESSAGE = "Please enter your full name";

export const ProfileNameSchema = v.object(
  {
    full_name: v.pipe(
      v.string(USER_NAME_MESSAGE),
      v.trim(),
      v.nonEmpty(USER_NAME_MESSAGE),
      v.maxLength(200, "Please use at most 200 characters"),
    ),
  },
  missingFieldMessage({ full_name: USER_NAME_MESSAGE }),
);
