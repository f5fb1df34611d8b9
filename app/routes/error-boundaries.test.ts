import { readFileSync } from "node:fs";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { describe, expect, it } from "vitest";
import routes from "~/routes";

/**
 * Every page route (a module with a component) exports an ErrorBoundary that renders
 * app/components/route-error.tsx, so a failure keeps the shell and names the page; it comes after
 * the component and before meta. Resource routes (loaders and actions only) need none.
 */
const files = (entries: RouteConfigEntry[]): string[] =>
  entries.flatMap((entry) => [entry.file, ...files(entry.children ?? [])]);

const modules = [...new Set(files(routes))].map((file) => ({
  file,
  source: readFileSync(new URL(`../${file}`, import.meta.url), "utf8"),
}));
const pages = modules.filter((m) => /^export default /m.test(m.source));

describe("route error boundaries", () => {
  it("finds the page routes", () => {
    expect(pages.map((m) => m.file)).toEqual(
      expect.arrayContaining(["routes/dashboard.tsx", "routes/debtor-timeline.tsx", "routes/portal.tsx"]),
    );
    // A resource route is not a page.
    expect(pages.map((m) => m.file)).not.toContain("routes/debtors-export.ts");
  });

  it.each(pages.map((m) => [m.file, m.source]))("%s exports an ErrorBoundary with its own message", (_, source) => {
    const boundary =
      /^export function ErrorBoundary\(\) \{\n {2}return <RouteError message="(We couldn't [^"]+\.)" \/>;/m.exec(
        source,
      );
    expect(boundary?.[1]).toBeDefined();
    const component = source.search(/^export default /m);
    const meta = source.search(/^export const meta\b/m);
    expect(boundary!.index).toBeGreaterThan(component);
    if (meta !== -1) expect(boundary!.index).toBeLessThan(meta);
  });

  it("no two pages say the same thing", () => {
    const messages = pages.map((m) => /<RouteError message="([^"]+)"/.exec(m.source)?.[1]);
    expect(new Set(messages).size).toBe(pages.length);
  });
});
