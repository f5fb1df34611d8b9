import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";

// Applied once per test file's storage; migrations are idempotent (tracked in d1_migrations).
await applyD1Migrations(
  env.DB,
  (env as unknown as { TEST_MIGRATIONS: Parameters<typeof applyD1Migrations>[1] }).TEST_MIGRATIONS,
);
