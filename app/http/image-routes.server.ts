import { Hono } from "hono";
import { verifyImageSignature } from "~/account/index.server";
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
