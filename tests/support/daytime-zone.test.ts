import { describe, expect, it } from "vitest";
import { daytimeZone } from "./daytime-zone";

describe("daytimeZone", () => {
  it("is a zone where the local hour is 13 at every UTC hour", () => {
    for (let h = 0; h < 24; h++) {
      const now = Date.UTC(2026, 10, 22, h, 30);
      const zone = daytimeZone(now);
      const hour = new Intl.DateTimeFormat("en-US", { timeZone: zone, hour: "numeric", hourCycle: "h23" }).format(now);
      expect(Number(hour), `${h}:30 UTC in ${zone}`).toBe(13);
    }
  });
});
