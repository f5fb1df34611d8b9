/** Reminder presets: the escalating sequence and the single recurring reminder. */
export type TemplateId = "initial" | "follow-up" | "second-follow-up" | "final-notice" | "single";
export type PresetId = "FRIENDLY_REMINDER" | "SINGLE_REMINDER";

interface ReminderTemplate {
  id: TemplateId;
  name: string;
}

export interface ReminderPreset {
  id: PresetId;
  name: string;
  description: string;
  templates: readonly ReminderTemplate[];
}

export const PRESETS: readonly ReminderPreset[] = [
  {
    id: "FRIENDLY_REMINDER",
    name: "Escalating Reminders",
    description:
      "Four e-mails that grow firmer: an initial reminder, a follow up, a second follow up and a final notice, which repeats until the schedule is cancelled.",
    templates: [
      { id: "initial", name: "Initial Email" },
      { id: "follow-up", name: "Follow Up" },
      { id: "second-follow-up", name: "Second follow up" },
      { id: "final-notice", name: "Final Notice" },
    ],
  },
  {
    id: "SINGLE_REMINDER",
    name: "Single Reminder",
    description: "One reminder of the outstanding balance, repeated at the chosen frequency.",
    templates: [{ id: "single", name: "Single Reminder" }],
  },
] as const;

export const DEFAULT_PRESET: PresetId = "FRIENDLY_REMINDER";
export const TEMPLATE_IDS: readonly TemplateId[] = [
  "initial",
  "follow-up",
  "second-follow-up",
  "final-notice",
  "single",
];

/** The preset with this id, or undefined. */
export function getPreset(id: string): ReminderPreset | undefined {
  return PRESETS.find((p) => p.id === id);
}

/** True for one of the reminder templates' ids. */
export function isTemplateId(value: string): value is TemplateId {
  return (TEMPLATE_IDS as readonly string[]).includes(value);
}

/** The template's name ("Initial Email"); the id itself when unknown. */
export function templateName(id: string): string {
  for (const preset of PRESETS) {
    const found = preset.templates.find((t) => t.id === id);
    if (found) return found.name;
  }
  return id;
}

/**
 * The template sent at a 0-based step of a preset: the sequence in order, then its last
 * template again and again (the Final Notice repeats until the schedule is cancelled).
 */
export function templateForStep(presetId: PresetId, step: number): TemplateId {
  const preset = getPreset(presetId);
  if (!preset) throw new Error(`Unknown preset ${presetId}`);
  const index = Math.min(Math.max(0, Math.floor(step)), preset.templates.length - 1);
  const template = preset.templates[index];
  if (!template) throw new Error(`Preset ${presetId} has no templates`);
  return template.id;
}
