// `npm run dev` first: the local values each Worker's .dev.vars overrides its production
// wrangler.toml with (docs/decisions/006). Creates .dev.vars from the committed .dev.vars.example
// when missing, and appends keys an older .dev.vars lacks, so a fresh clone needs no manual step.
import { randomBytes } from "node:crypto";
import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";

const FILES = [".dev.vars", "workers/mail/.dev.vars"];

/** Values made per machine rather than committed: no signing key is public. */
const GENERATED = {
  IMAGE_URL_SECRET: () => randomBytes(32).toString("hex"),
  OPT_OUT_SECRET: () => randomBytes(32).toString("hex"),
  ACCOUNTING_TOKEN_KEY: () => randomBytes(32).toString("base64"),
};

const keyOf = (line) => /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=/.exec(line)?.[1];

/** An example line, with a generated value where the example leaves it empty. */
function localLine(line) {
  const key = keyOf(line);
  const generate = key && GENERATED[key];
  return generate && line.trim() === `${key}=` ? `${key}=${generate()}` : line;
}

for (const file of FILES) {
  const exampleLines = readFileSync(`${file}.example`, "utf8").split("\n");
  if (!existsSync(file)) {
    writeFileSync(file, exampleLines.map(localLine).join("\n"));
    console.log(`[dunly] created ${file} from ${file}.example (local values, never committed)`);
    continue;
  }
  const present = new Set(readFileSync(file, "utf8").split("\n").map(keyOf).filter(Boolean));
  const missing = exampleLines.filter((line) => keyOf(line) && !present.has(keyOf(line)));
  if (missing.length === 0) continue;
  const text = readFileSync(file, "utf8");
  const lead = text === "" || text.endsWith("\n") ? "" : "\n";
  appendFileSync(file, `${lead}# Added from ${file}.example\n${missing.map(localLine).join("\n")}\n`);
  console.log(`[dunly] added ${missing.map(keyOf).join(", ")} to ${file} from ${file}.example`);
}
