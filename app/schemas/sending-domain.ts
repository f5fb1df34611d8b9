import * as v from "valibot";
import { asciiHostname, hostnameProblem, localPartProblem } from "~/domain/sending-domain";
import { missingFieldMessage } from "./missing";

/**
 * Settings → Sending domain (docs/decisions/059-sending-domains.md): the user's domain and the name
 * before the @ their mail goes from. One schema for the browser and the action. The domain is kept
 * as DNS knows it: lower case, an internationalized name in its ASCII form.
 */

const DOMAIN_MESSAGE = "Please enter your domain, such as example.com (no http://, no @, no path)";
const LOCAL_MESSAGE = "Please enter the name before the @, such as billing";

export const LOCAL_PART_DEFAULT = "billing";

export const SendingDomainSchema = v.object(
  {
    domain: v.pipe(
      v.string(DOMAIN_MESSAGE),
      v.maxLength(300, DOMAIN_MESSAGE),
      v.rawTransform(({ dataset, addIssue, NEVER }) => {
        const host = asciiHostname(dataset.value);
        const problem = host === null ? DOMAIN_MESSAGE : hostnameProblem(host);
        if (problem || host === null) {
          addIssue({ message: problem ?? DOMAIN_MESSAGE });
          return NEVER;
        }
        return host;
      }),
    ),
    local_part: v.pipe(
      v.optional(v.string(LOCAL_MESSAGE), LOCAL_PART_DEFAULT),
      v.trim(),
      v.toLowerCase(),
      v.maxLength(64, "The name before the @ has at most 64 characters"),
      v.rawCheck(({ dataset, addIssue }) => {
        if (!dataset.typed) return;
        const problem = localPartProblem(dataset.value);
        if (problem) addIssue({ message: problem });
      }),
    ),
  },
  // A post without the domain at all says what a blank one says.
  missingFieldMessage({ domain: DOMAIN_MESSAGE }),
);

export type SendingDomainInput = v.InferOutput<typeof SendingDomainSchema>;
