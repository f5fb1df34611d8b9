import { parseWithValibot } from "@conform-to/valibot";
import type { RouterContextProvider } from "react-router";
import { getApp } from "~/auth/context.server";
import { requireUser } from "~/auth/guard.server";
import { AccountCapReached } from "~/domain/account-caps";
import { isStepChannel, type StepVoice } from "~/domain/cadence";
import { formatCount } from "~/domain/intl";
import type { TemplateId } from "~/domain/presets";
import { isTone, type Tone } from "~/domain/strategies";
import { intentOf, readForm, reply } from "~/platform/action-result.server";
import { entityScope } from "~/platform/scope.server";
import { saveAccountCadence, turnAutopilotOff, turnAutopilotOn } from "~/reminders/index.server";
import { AccountCadenceSchema, cadenceOfInput } from "~/schemas/account-cadence";
import { CADENCE_INTENTS } from "~/schemas/intents";
import { SOMETHING_WRONG } from "~/schemas/messages";
import { textsAvailable } from "~/texts/index.server";

interface ActionArgs {
  context: Readonly<RouterContextProvider>;
  request: Request;
  url: URL;
}

const STEP_TEMPLATES: readonly string[] = ["initial", "follow-up", "second-follow-up", "final-notice"];

/**
 * Each step's template, tone and channel as chosen (fields voice_template_<offset>,
 * voice_tone_<offset> and voice_channel_<offset>; empty or absent: by its place, in the debtor's
 * tone, by e-mail); null when a value is not one the form offers. `texts` false (the channel does
 * not exist here): every step is the e-mail, whatever the form says.
 */
export function readStepVoices(
  formData: FormData,
  steps: readonly number[],
  { texts = true }: { texts?: boolean } = {},
): Record<number, StepVoice> | null {
  const voices: Record<number, StepVoice> = {};
  for (const step of steps) {
    const template = String(formData.get(`voice_template_${step}`) ?? "");
    const tone = String(formData.get(`voice_tone_${step}`) ?? "");
    const channel = String(formData.get(`voice_channel_${step}`) ?? "");
    if (template !== "" && !STEP_TEMPLATES.includes(template)) return null;
    if (tone !== "" && !isTone(Number(tone))) return null;
    if (channel !== "" && !isStepChannel(channel)) return null;
    const voice: StepVoice = {
      template: template === "" ? null : (template as TemplateId),
      tone: tone === "" ? null : (Number(tone) as Tone),
    };
    if (texts && isStepChannel(channel) && channel !== "email") voice.channel = channel;
    voices[step] = voice;
  }
  return voices;
}

const schedules = (n: number) => `${formatCount(n)} ${n === 1 ? "schedule" : "schedules"}`;

/**
 * Settings → Cadence (the action of /iam/cadence): save the account's cadence (every schedule that
 * follows it takes the new steps), and turn autopilot on (after its summary) or off. The owner is
 * always the session's user.
 */
export async function cadenceAction({ context, request, url }: ActionArgs) {
  const user = await requireUser(context, url);
  const { env, config } = getApp(context);
  const form = await readForm(request);
  if ("refused" in form) return form.refused;
  const { formData } = form;
  const scope = entityScope(env, config, user, request);
  const intent = intentOf(formData);
  switch (intent) {
    case CADENCE_INTENTS.save: {
      const submission = parseWithValibot(formData, { schema: AccountCadenceSchema });
      if (submission.status !== "success")
        return reply(CADENCE_INTENTS.save, { status: 400, result: submission.reply() });
      const cadence = cadenceOfInput(submission.value);
      const voices = readStepVoices(formData, cadence.steps, { texts: textsAvailable(config) });
      if (!voices)
        return reply(CADENCE_INTENTS.save, {
          status: 400,
          message: "Choose each step's template, tone and channel from their lists.",
          result: submission.reply(),
        });
      const following = await saveAccountCadence(scope, { ...cadence, voices });
      return reply(CADENCE_INTENTS.save, {
        message:
          following > 0
            ? `Cadence saved. ${schedules(following)} that follow it moved to their next e-mail under it.`
            : "Cadence saved.",
        result: submission.reply(),
      });
    }
    case CADENCE_INTENTS.autopilotOn:
      try {
        const joined = await turnAutopilotOn(scope, { max: scope.caps.schedules });
        return reply(CADENCE_INTENTS.autopilotOn, {
          message: `Autopilot is on. ${joined === 1 ? "1 debtor follows" : `${formatCount(joined)} debtors follow`} your cadence.`,
        });
      } catch (error) {
        if (error instanceof AccountCapReached)
          return reply(CADENCE_INTENTS.autopilotOn, { status: 403, message: error.message });
        throw error;
      }
    case CADENCE_INTENTS.autopilotOff: {
      const paused = await turnAutopilotOff(scope);
      return reply(CADENCE_INTENTS.autopilotOff, {
        message: `Autopilot is off. ${schedules(paused)} that followed your cadence ${paused === 1 ? "is" : "are"} paused.`,
      });
    }
    default:
      return reply(intent, { status: 400, message: SOMETHING_WRONG });
  }
}
