import { Hono } from "hono";
import { createRequestHandler, type RequestHandler } from "react-router";
import { type AccountJob, consumeAccountJobs } from "~/account/index.server";
import { type BooksImportJob, consumeBooksJobs } from "~/accounting/index.server";
import { createAppContext } from "~/auth/context.server";
import { readSessionToken, SessionGate, sessionCookie } from "~/auth/index.server";
import { getDb } from "~/db/client.server";
import { MAX_REPLY_BYTES } from "~/domain/inbound-mail";
import { sharedPacer } from "~/domain/pacer";
import { api } from "~/http/api.server";
import { devRoutes } from "~/http/dev-routes.server";
import type { AppBindings } from "~/http/hono-env";
import { imageRoutes, logoRoutes } from "~/http/image-routes.server";
import { webhookRoutes } from "~/http/webhooks.server";
import { mailSendsPerSecond, readConfig } from "~/platform/config.server";
import { newNonce, withSecurityHeaders } from "~/platform/security-headers.server";
import { consumeMail, type MailQueueMessage } from "~/reminders/index.server";
import { REJECTIONS, receiveReply } from "~/responses/index.server";
import { runHousekeeping, runWatchdog } from "~/watchdog/index.server";

const loadBuild = () => import("virtual:react-router/server-build");

/**
 * React Router's handler. Given a function, it derives its routes and static handler from the build
 * on every request, so that the dev server picks up edits; the production build never changes, so
 * there it is made once, on the first request, from the loaded build (deriving it was about
 * a twentieth of a page's time).
 */
const requestHandler: RequestHandler = import.meta.env.DEV
  ? createRequestHandler(loadBuild, import.meta.env.MODE)
  : (() => {
      let handler: Promise<RequestHandler> | undefined;
      return async (request, context) => {
        handler ??= loadBuild().then(
          (build) => createRequestHandler(build, import.meta.env.MODE),
          (error) => {
            handler = undefined; // tried again on the next request
            throw error;
          },
        );
        return (await handler)(request, context);
      };
    })();

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The opt-out link's path, /u/<token> (app/routes.ts), and nothing under it. */
const OPT_OUT_PATH = /^\/u\/[^/]+$/;

/**
 * The RFC 8058 one-click opt-out is a POST from the mail provider's servers, cookie-less, with
 * whatever Origin they send (some send their own). React Router refuses an action whose Origin is
 * not the request's (its CSRF check answers 400), so for exactly this POST the Origin is dropped
 * before React Router sees it: the signed token in the path is what authenticates it, and without
 * a session cookie there is nothing to forge.
 */
function oneClickOptOut(request: Request): Request {
  if (request.method !== "POST" || !request.headers.has("Origin")) return request;
  if (!OPT_OUT_PATH.test(new URL(request.url).pathname)) return request;
  const headers = new Headers(request.headers);
  headers.delete("Origin");
  return new Request(request, { headers });
}

/** The paths Hono's own routes answer (below): they read the signed-in user before running. */
const HONO_ROUTES = /^\/(api|dev|images|webhooks)(\/|$)/;

/** Builds the Worker: configuration, CSRF and session first, then Hono's routes, then React Router for pages. */
export function createApp() {
  const app = new Hono<AppBindings>();

  // Security headers on every response, a fresh script nonce for each, HSTS over https, and no
  // caching of what belongs to a session.
  app.use("*", async (c, next) => {
    // The nonce is made when something asks for it: a page (the policy and its inline scripts),
    // not a JSON or redirect response.
    let nonce: string | undefined;
    c.set("nonce", () => {
      nonce ??= newNonce();
      return nonce;
    });
    await next();
    // The session middleware below has read the session by now (docs/decisions/025).
    // Assigning c.res makes Hono copy the response again: only a copy (immutable headers) is assigned.
    const secured = withSecurityHeaders(c.res, c.get("nonce"), {
      https: c.req.url.startsWith("https:"),
      // Unset when an earlier middleware answered (a refused CSRF check): no session was read.
      session: Boolean(c.get("session")?.settled),
    });
    if (secured !== c.res) c.res = secured;
  });

  // Configuration: validated before anything runs (once per isolate: readConfig keeps it), so a bad
  // deployment fails loudly, naming the value, on every request.
  app.use("*", async (c, next) => {
    c.set("config", readConfig(c.env));
    await next();
  });

  // CSRF: every state-changing request must come from our own origin.
  app.use("*", async (c, next) => {
    // Exempt: provider webhooks (signed) and the opt-out link's one-click POST (RFC 8058: mail
    // clients send it without an Origin; the signed token in the path authenticates it).
    if (!SAFE_METHODS.has(c.req.method) && !c.req.path.startsWith("/webhooks/") && !c.req.path.startsWith("/u/")) {
      const origin = c.req.header("Origin");
      if (!origin || origin !== new URL(c.req.url).origin) return c.text("Forbidden", 403);
    }
    await next();
  });

  // Session: read once, when first needed (docs/decisions/025). Hono's routes get the signed-in
  // user before they run; pages read it from the app context, a page with one D1 batch in that
  // batch. Whoever asked, it is read before the response leaves: the response's caching depends
  // on it, and sliding expiry re-sends the cookie.
  app.use("*", async (c, next) => {
    const token = readSessionToken(c.req.raw);
    const gate = new SessionGate(getDb(c.env.DB), token);
    c.set("session", gate);
    if (HONO_ROUTES.test(c.req.path)) c.set("user", await gate.user({ now: true }));
    await next();
    const session = await gate.session();
    if (token && session?.renewed && !c.res.headers.has("Set-Cookie")) {
      c.res = new Response(c.res.body, c.res);
      c.res.headers.append("Set-Cookie", sessionCookie(token, session.expiresAt, new URL(c.req.url)));
    }
  });

  app.route("/api", api);
  app.route("/dev", devRoutes);
  app.route("/images", imageRoutes);
  app.route("/logos", logoRoutes);
  app.route("/webhooks", webhookRoutes);

  app.all("*", (c) =>
    requestHandler(
      oneClickOptOut(c.req.raw),
      createAppContext({
        env: c.env,
        config: c.get("config"),
        ctx: c.executionCtx as ExecutionContext,
        session: c.get("session"),
        // Made when a page reads it (a response without HTML needs none).
        get nonce() {
          return c.get("nonce")();
        },
      }),
    ),
  );
  return app;
}

const app = createApp();

export { MailHandoff } from "./mail-handoff";
export { ReminderSchedule } from "./reminder-schedule";

export default {
  fetch: app.fetch,
  // The cron trigger: the watchdog re-arms enabled schedules whose alarm
  // was lost, and housekeeping purges expired sign-in and rate-limit rows.
  scheduled(_controller, env, ctx) {
    ctx.waitUntil(runWatchdog(env));
    ctx.waitUntil(runHousekeeping(env));
  },
  // Replies to reminders (decisions/020): Cloudflare Email Routing delivers mail for INBOUND_DOMAIN
  // here. Refused (setReject) without the domain or its secret, for a bad address, too large a
  // message or too many replies; never answered, so no loop can start.
  async email(message, env) {
    let config: ReturnType<typeof readConfig>;
    try {
      config = readConfig(env);
    } catch (error) {
      console.error("[dunly] inbound mail refused: bad configuration", error);
      message.setReject(REJECTIONS["not-configured"]);
      return;
    }
    const outcome = await receiveReply(env, config, {
      to: message.to,
      from: message.from,
      raw: message.rawSize > MAX_REPLY_BYTES ? new Uint8Array() : await new Response(message.raw).arrayBuffer(),
      size: message.rawSize,
    });
    if (!outcome.ok) message.setReject(REJECTIONS[outcome.reason]);
  },
  // The mail queue: due reminders, sent in batches of up to 100 at
  // MAIL_SENDS_PER_SECOND requests a second (docs/decisions/021); the requests finish in waitUntil.
  // The jobs queue: an account's deletion (app/account/delete.server.ts) or an accounting tool's
  // first import (app/accounting/import-job.server.ts), one bounded step a message.
  async queue(batch, env, ctx) {
    if (batch.queue === "dunly-jobs") {
      const messages = batch.messages as readonly Message<AccountJob | BooksImportJob>[];
      const imports = messages.filter((m): m is Message<BooksImportJob> => m.body?.kind === "books-import");
      await consumeBooksJobs(env, imports);
      await consumeAccountJobs(
        env,
        readConfig(env),
        messages.filter((m): m is Message<AccountJob> => m.body?.kind !== "books-import"),
      );
      return;
    }
    await consumeMail({ env, db: getDb(env.DB) }, batch.messages as readonly Message<MailQueueMessage>[], {
      pacer: sharedPacer(mailSendsPerSecond(readConfig(env))),
      waitUntil: (promise) => ctx.waitUntil(promise),
    });
  },
} satisfies ExportedHandler<Env>;
