import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The shape of the house (decisions/033): feature folders in rows, each importing only its own
// row or lower ones, with no cycle between folders, and reaching another feature only through
// its public face. Read from the imports themselves, so a change that breaks the shape fails here.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** Each folder's row, bottom up (docs/architecture.md, the folder map). */
const ROWS: Record<string, number> = {
  "app/db": 1,
  "app/domain": 1,
  "app/schemas": 1,
  "app/platform": 2,
  "app/ui": 2,
  "app/links": 3,
  "app/stripe": 3,
  "app/activity": 3,
  "app/auth": 3,
  "app/mail": 3,
  "app/bank": 3,
  "app/texts": 3,
  "app/reminders": 4,
  "app/ledger": 5,
  "app/billing": 5,
  "app/account": 5,
  "app/responses": 6,
  "app/debtors": 6,
  "app/accounting": 6,
  "app/watchdog": 7,
  "app/http": 8,
  "app/actions": 8,
  "app/components": 8,
  "app/routes": 8,
  app: 8,
  workers: 9,
};

/** Features reached only through their face (plus the named request entry files of auth). */
const FACED = [
  "bank",
  "links",
  "stripe",
  "texts",
  "activity",
  "auth",
  "reminders",
  "ledger",
  "billing",
  "account",
  "responses",
  "debtors",
  "accounting",
];
const ENTRY_FILES = ["app/auth/context.server.ts", "app/auth/guard.server.ts", "app/auth/sign-in-action.server.ts"];

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sources(path, out);
    else if (/\.(ts|tsx)$/.test(name) && !/\.(test|d)\.tsx?$/.test(name)) out.push(path);
  }
  return out;
}

function resolveImport(from: string, spec: string): string | null {
  let base: string;
  if (spec.startsWith("~/")) base = join(ROOT, "app", spec.slice(2));
  else if (spec.startsWith(".")) base = resolve(dirname(from), spec);
  else return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts")]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** The folder a file belongs to, as the rows name them. */
function folderOf(file: string): string {
  const parts = relative(ROOT, file).split("/");
  if (parts[0] === "app") return parts.length > 2 ? `app/${parts[1]}` : "app";
  return parts[0] ?? "";
}

interface Edge {
  from: string;
  to: string;
  typeOnly: boolean;
}

function edges(): Edge[] {
  const files = ["app", "workers", "emails"].flatMap((d) => sources(join(ROOT, d)));
  const found: Edge[] = [];
  const importRe = /^\s*(import|export)\s+(type\s+)?[^"';]*?from\s+["']([^"']+)["']/gm;
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(importRe)) {
      const target = resolveImport(file, m[3] ?? "");
      if (target) found.push({ from: file, to: target, typeOnly: Boolean(m[2]) });
    }
  }
  return found;
}

const ALL = edges();
const rel = (f: string) => relative(ROOT, f);

describe("the layering of folders", () => {
  it("has no cycle between folders", () => {
    const graph = new Map<string, Set<string>>();
    for (const e of ALL) {
      const a = folderOf(e.from);
      const b = folderOf(e.to);
      if (a === b || e.typeOnly) continue;
      graph.set(a, (graph.get(a) ?? new Set()).add(b));
    }
    const cycles: string[] = [];
    const state = new Map<string, "open" | "done">();
    const visit = (node: string, path: string[]) => {
      if (state.get(node) === "done") return;
      if (state.get(node) === "open") {
        cycles.push([...path.slice(path.indexOf(node)), node].join(" → "));
        return;
      }
      state.set(node, "open");
      for (const next of graph.get(node) ?? []) visit(next, [...path, node]);
      state.set(node, "done");
    };
    for (const node of graph.keys()) visit(node, []);
    expect(cycles).toEqual([]);
  });

  it("imports only its own row or lower ones at run time", () => {
    const upwards = ALL.filter((e) => {
      if (e.typeOnly) return false;
      const a = ROWS[folderOf(e.from)];
      const b = ROWS[folderOf(e.to)];
      return a !== undefined && b !== undefined && b > a;
    }).map((e) => `${rel(e.from)} → ${rel(e.to)}`);
    expect(upwards).toEqual([]);
  });

  it("reaches another feature only through its public face", () => {
    const inside = ALL.filter((e) => {
      const feature = FACED.find((f) => rel(e.to).startsWith(`app/${f}/`));
      if (!feature || rel(e.from).startsWith(`app/${feature}/`)) return false;
      return rel(e.to) !== `app/${feature}/index.server.ts` && !ENTRY_FILES.includes(rel(e.to));
    }).map((e) => `${rel(e.from)} → ${rel(e.to)}`);
    expect(inside).toEqual([]);
  });

  it("calls the mail Worker and the schedules' Durable Objects from one folder each", () => {
    const callers = (pattern: RegExp) =>
      [
        ...new Set(
          ["app", "workers"]
            .flatMap((d) => sources(join(ROOT, d)))
            .filter((f) => pattern.test(readFileSync(f, "utf8")))
            .map(folderOf),
        ),
      ].sort();
    expect(callers(/\benv\.MAILER\b/)).toEqual(["app/mail"]);
    expect(callers(/\benv\.SCHEDULES\.(get|idFromName)/)).toEqual(["app/reminders"]);
  });
});
