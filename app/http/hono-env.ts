import type { SessionUser } from "~/auth/session.server";
import type { AppConfig } from "~/lib/config.server";

/** Hono's bindings and per-request variables, set by workers/app.ts before any route runs. */
export type AppBindings = {
  Bindings: Env;
  Variables: {
    /** The validated configuration (app/lib/config.server.ts), read once per request. */
    config: AppConfig;
    /** The signed-in user from the session cookie, or null for a visitor. */
    user: SessionUser | null;
    /** This response's script nonce, named by its Content-Security-Policy. */
    nonce: string;
  };
};
