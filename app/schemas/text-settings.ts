import * as v from "valibot";
import { isTextCountry } from "~/domain/phone";

export const TEXT_COUNTRY_MESSAGE = "Please choose countries from the list";
export const TEXT_COUNTRIES_NEEDED_MESSAGE = "Choose at least one country to turn texts on";

/**
 * Settings → Text messages (decisions/069): the channel on or off and the countries whose numbers
 * may be texted. A checkbox group: absent is none, one box a string, several an array.
 */
export const textSettingsSchema = v.pipe(
  v.object({
    enabled: v.optional(v.literal("on", "Please tick the box or leave it empty")),
    countries: v.pipe(
      v.optional(v.union([v.string(), v.array(v.string())], TEXT_COUNTRY_MESSAGE)),
      v.transform((c) => (c === undefined ? [] : Array.isArray(c) ? c : [c])),
      v.check((list) => list.every(isTextCountry), TEXT_COUNTRY_MESSAGE),
    ),
  }),
  v.forward(
    v.partialCheck(
      [["enabled"], ["countries"]],
      (d) => d.enabled !== "on" || (d.countries?.length ?? 0) > 0,
      TEXT_COUNTRIES_NEEDED_MESSAGE,
    ),
    ["countries"],
  ),
  v.transform((d) => ({ enabled: d.enabled === "on", countries: [...new Set(d.countries)] })),
);
