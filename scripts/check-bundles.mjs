// Bundle size check (a step of `npm test`, after the build): `wrangler deploy --dry-run` for both
// built Workers (offline: nothing is uploaded), then every file of each bundle gzipped and summed.
// Fails when either Worker is over 1 MiB gzip, so growth is seen before a deploy is refused.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

const LIMIT = 1024 * 1024;
const OUT = ".wrangler/bundle-check";

const workers = [
  { name: "mail Worker (dunly-mail)", config: "dist/dunly_mail/wrangler.json", outdir: `${OUT}/mail` },
  { name: "app Worker (dunly)", config: "build/server/wrangler.json", outdir: `${OUT}/app` },
];

process.env.WRANGLER_SEND_METRICS = "false";
process.env.CLOUDFLARE_CF_FETCH_ENABLED = "false";

/** Every file wrangler wrote for upload (the modules), not its README or source maps. */
function bundleFiles(dir) {
  return readdirSync(dir, { recursive: true })
    .map((name) => join(dir, String(name)))
    .filter((path) => statSync(path).isFile() && !path.endsWith(".map") && !path.endsWith("README.md"));
}

const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
let failed = false;

for (const worker of workers) {
  rmSync(worker.outdir, { recursive: true, force: true });
  const dryRun = spawnSync("wrangler", ["deploy", "--dry-run", "--outdir", worker.outdir, "-c", worker.config], {
    encoding: "utf8",
  });
  if (dryRun.error) {
    console.error(
      `✖ Could not run wrangler (${dryRun.error.message}); run this through npm (npm test, npm run deploy).`,
    );
    process.exit(1);
  }
  if (dryRun.status !== 0) {
    console.error(`${dryRun.stdout}${dryRun.stderr}\n✖ wrangler deploy --dry-run failed for the ${worker.name}.`);
    process.exit(dryRun.status ?? 1);
  }
  let raw = 0;
  let gzip = 0;
  const files = bundleFiles(worker.outdir);
  for (const file of files) {
    const bytes = readFileSync(file);
    raw += bytes.length;
    gzip += gzipSync(bytes).length;
  }
  const over = gzip > LIMIT;
  failed ||= over;
  console.log(
    `${over ? "✖" : "✔"} ${worker.name}: ${files.length} files, ${kib(raw)}, ${kib(gzip)} gzip (limit ${kib(LIMIT)})`,
  );
}

if (failed) {
  console.error(
    "\nA Worker bundle is over 1 MiB gzip; see which modules grew in the dry-run output under .wrangler/bundle-check.",
  );
  process.exit(1);
}
