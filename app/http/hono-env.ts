import type { SessionGate, SessionUser } from "~/auth/index.server";
import type { AppConfig } from "~/platform/config.server";

/** Hono's bindings and per-request variables, set by workers/app.ts before any route runs. */
export type AppBindings = {
  Bindings: Env;
  Variables: {
    /** The validated configuration (app/platform/config.server.ts), read once per request. */
    config: AppConfig;
    /** The signed-in user from the session cookie, or null for a visitor: set for Hono's own routes. */
    user: SessionUser | null;
    /** The request's session, read when first needed (docs/decisions/025). */
    session: SessionGate;
    /** This response's script nonce, named by its Content-Security-Policy: made on the first call. */
    nonce: () => string;
  };
};
