import { Hono } from "hono";
import { logoObjectKey, logoOwner, verifyImageSignature } from "~/account/index.server";
import { getDb } from "~/db/client.server";
import type { AppBindings } from "./hono-env";

/** Profile photos from R2, only through a signed, unexpired URL, with the type sniffed at upload. */
export const imageRoutes = new Hono<AppBindings>();

imageRoutes.get("/:owner/:name", async (c) => {
  const key = `${c.req.param("owner")}/${c.req.param("name")}`;
  if (!(await verifyImageSignature(c.get("config"), key, c.req.query("expires"), c.req.query("sig"))))
    return c.text("Not found", 404);
  const object = await c.env.IMAGES.get(key);
  if (!object) return c.text("Not found", 404);
  return new Response(object.body, {
    headers: {
      "Content-Type": object.httpMetadata?.contentType ?? "application/octet-stream",
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "private, max-age=3600",
      "Content-Security-Policy": "default-src 'none'; sandbox",
    },
  });
});

/**
 * The users' logos (docs/decisions/058): public, since mail clients fetch them without a session or
 * an expiry, but only by their random public name (128 bits, users.brand_logo), so nobody can list
 * or guess one; a profile photo, a replaced logo or one of an account being deleted is 404. A new
 * logo gets a new name, so a logo's answer never changes: cached a year.
 */
export const logoRoutes = new Hono<AppBindings>();

logoRoutes.get("/:name", async (c) => {
  const name = c.req.param("name");
  if (!/^[a-z0-9]{16,64}$/.test(name)) return c.text("Not found", 404);
  const owner = await logoOwner(getDb(c.env.DB), name);
  if (!owner) return c.text("Not found", 404);
  const object = await c.env.IMAGES.get(logoObjectKey(owner, name));
  if (!object) return c.text("Not found", 404);
  return new Response(object.body, {
    headers: {
      "Content-Type": object.httpMetadata?.contentType ?? "application/octet-stream",
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "public, max-age=31536000, immutable",
      "Content-Security-Policy": "default-src 'none'; sandbox",
      "Cross-Origin-Resource-Policy": "cross-origin",
    },
  });
});
