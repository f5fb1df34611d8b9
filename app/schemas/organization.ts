import * as v from "valibot";
import { missingFieldMessage } from "./missing";
import { PaymentUrlField } from "./profile";

const ORG_NAME_MESSAGE = "Please enter the name of the organization";
const ORG_ADDRESS_MESSAGE = "Please enter the address of the organization";

export const OrganizationSchema = v.object(
  {
    name: v.pipe(
      v.string(ORG_NAME_MESSAGE),
      v.trim(),
      v.nonEmpty(ORG_NAME_MESSAGE),
      v.maxLength(200, "Please use at most 200 characters"),
    ),
    address: v.pipe(
      v.string(ORG_ADDRESS_MESSAGE),
      v.trim(),
      v.nonEmpty(ORG_ADDRESS_MESSAGE),
      v.maxLength(500, "Please use at most 500 characters"),
    ),
    // Its own 'Pay now' page for reminders sent as the organization; blank: the user's.
    payment_url: PaymentUrlField,
  },
  missingFieldMessage({ name: ORG_NAME_MESSAGE, address: ORG_ADDRESS_MESSAGE }),
);
export type OrganizationInput = v.InferOutput<typeof OrganizationSchema>;
