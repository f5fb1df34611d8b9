import { describe, expect, it } from "vitest";
import {
  DEFAULT_PRESET,
  getPreset,
  isTemplateId,
  PRESETS,
  type PresetId,
  templateForStep,
  templateName,
} from "./presets";

describe("templateForStep", () => {
  it("walks the escalating preset, then repeats the Final Notice", () => {
    const steps = [0, 1, 2, 3, 4, 5].map((step) => templateForStep("FRIENDLY_REMINDER", step));
    expect(steps).toEqual(["initial", "follow-up", "second-follow-up", "final-notice", "final-notice", "final-notice"]);
    expect(templateForStep("FRIENDLY_REMINDER", 1000)).toBe("final-notice");
  });
  it("always sends the single reminder for the single preset", () => {
    for (const step of [0, 1, 2, 3, 4, 5, 99]) expect(templateForStep("SINGLE_REMINDER", step)).toBe("single");
  });
  it("clamps negative and fractional steps", () => {
    expect(templateForStep("FRIENDLY_REMINDER", -1)).toBe("initial");
    expect(templateForStep("FRIENDLY_REMINDER", 1.9)).toBe("follow-up");
  });
  it("throws for an unknown preset", () => {
    expect(() => templateForStep("NOPE" as PresetId, 0)).toThrow(/Unknown preset NOPE/);
  });
});

describe("presets", () => {
  it("getPreset finds presets by id", () => {
    expect(getPreset("FRIENDLY_REMINDER")?.name).toBe("Escalating Reminders");
    expect(getPreset("SINGLE_REMINDER")?.templates.map((t) => t.id)).toEqual(["single"]);
    expect(getPreset("friendly_reminder")).toBeUndefined();
    expect(getPreset("")).toBeUndefined();
    expect(getPreset(DEFAULT_PRESET)).toBe(PRESETS[0]);
  });
  it("templateName names every template and falls back to the id", () => {
    expect(templateName("initial")).toBe("Initial Email");
    expect(templateName("follow-up")).toBe("Follow Up");
    expect(templateName("second-follow-up")).toBe("Second follow up");
    expect(templateName("final-notice")).toBe("Final Notice");
    expect(templateName("single")).toBe("Single Reminder");
    expect(templateName("unknown")).toBe("unknown");
  });
  it("isTemplateId accepts exactly the template ids", () => {
    for (const preset of PRESETS) for (const t of preset.templates) expect(isTemplateId(t.id)).toBe(true);
    expect(isTemplateId("Initial")).toBe(false);
    expect(isTemplateId("")).toBe(false);
  });
});
