// Worker upload sizes: `wrangler deploy --dry-run --outdir` for both built Workers (offline:
// nothing is uploaded), every file wrangler would upload gzipped and summed, as
// scripts/check-bundles.mjs does (a copy of its measurement, so that script's CLI stays as it is).
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

/** Every file wrangler wrote for upload (the modules), not its README or source maps. */
function bundleFiles(dir) {
  return readdirSync(dir, { recursive: true })
    .map((name) => join(dir, String(name)))
    .filter((path) => statSync(path).isFile() && !path.endsWith(".map") && !path.endsWith("README.md"));
}

/**
 * Dry-runs the deploy of `config` into `outdir` and returns { files, raw, gzip, largest } (bytes;
 * `largest`: the five biggest files by gzip size, as { file, raw, gzip }).
 */
export function workerUploadSize(config, outdir) {
  rmSync(outdir, { recursive: true, force: true });
  const dryRun = spawnSync("wrangler", ["deploy", "--dry-run", "--outdir", outdir, "-c", config], {
    encoding: "utf8",
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
  });
  if (dryRun.status !== 0) {
    throw new Error(`wrangler deploy --dry-run failed for ${config}:\n${dryRun.stdout}${dryRun.stderr}`);
  }
  const files = bundleFiles(outdir).map((file) => {
    const bytes = readFileSync(file);
    return { file: file.slice(outdir.length + 1), raw: bytes.length, gzip: gzipSync(bytes).length };
  });
  return {
    files: files.length,
    raw: files.reduce((s, f) => s + f.raw, 0),
    gzip: files.reduce((s, f) => s + f.gzip, 0),
    largest: [...files].sort((a, b) => b.gzip - a.gzip).slice(0, 5),
  };
}
