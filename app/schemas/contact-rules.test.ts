import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { CAP_MESSAGE, ContactRulesSchema, END_MESSAGE, ORDER_MESSAGE, START_MESSAGE } from "./contact-rules";

const parse = (input: Record<string, unknown>) => v.safeParse(ContactRulesSchema, input);
const messages = (input: Record<string, unknown>) => {
  const result = parse(input);
  return result.success ? [] : result.issues.map((i) => i.message);
};

describe("ContactRulesSchema", () => {
  it("accepts the defaults and anything tighter, from form strings", () => {
    expect(parse({ start_hour: "8", end_hour: "21", max_per_week: "7" }).output).toEqual({
      start_hour: 8,
      end_hour: 21,
      max_per_week: 7,
    });
    expect(parse({ start_hour: 9, end_hour: 17, max_per_week: 2 }).success).toBe(true);
  });

  it("refuses anything looser than the defaults", () => {
    expect(messages({ start_hour: "7", end_hour: "21", max_per_week: "7" })).toEqual([START_MESSAGE]);
    expect(messages({ start_hour: "8", end_hour: "22", max_per_week: "7" })).toEqual([END_MESSAGE]);
    expect(messages({ start_hour: "8", end_hour: "21", max_per_week: "8" })).toEqual([CAP_MESSAGE]);
    expect(messages({ start_hour: "8", end_hour: "21", max_per_week: "0" })).toEqual([CAP_MESSAGE]);
  });

  it("needs the end after the start", () => {
    expect(messages({ start_hour: "15", end_hour: "12", max_per_week: "3" })).toEqual([ORDER_MESSAGE]);
    expect(messages({ start_hour: "12", end_hour: "12", max_per_week: "3" })).toEqual([ORDER_MESSAGE]);
  });

  it("refuses garbage with a field message, never a throw", () => {
    expect(messages({ start_hour: "eight", end_hour: "", max_per_week: "1.5" })).toEqual([
      START_MESSAGE,
      END_MESSAGE,
      CAP_MESSAGE,
    ]);
    expect(parse({}).success).toBe(false);
  });
});
