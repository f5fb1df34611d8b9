import { type DnsRecord, standInRecords } from "~/domain/sending-domain";

/**
 * The local stand-in of Resend's Domains API (docs/decisions/059-sending-domains.md), for
 * development and tests without RESEND_API_KEY: the mail Worker sends its Domains requests here
 * instead of over the network (`resendDomainsStandIn` is a fetch), so the same requests, answers
 * and parsing run as in production. Its domains are rows of D1's dev_resend_domains; a person
 * verifies or fails one on /dev/resend/domains (app/http/resend-pages.server.ts), as Resend would
 * after reading the DNS. Raw D1 statements: the mail Worker carries no query builder.
 */

export interface StandInDomain {
  id: string;
  name: string;
  status: string;
  records: DnsRecord[];
  createdAt: number;
}

interface Row {
  id: string;
  name: string;
  status: string;
  records: string;
  created_at: number;
}

const toDomain = (row: Row): StandInDomain => ({
  id: row.id,
  name: row.name,
  status: row.status,
  records: JSON.parse(row.records) as DnsRecord[],
  createdAt: row.created_at,
});

/** Every domain of the stand-in, newest first (its page lists them). */
export async function listStandInDomains(db: D1Database): Promise<StandInDomain[]> {
  const { results } = await db
    .prepare("SELECT id, name, status, records, created_at FROM dev_resend_domains ORDER BY created_at DESC LIMIT 100")
    .all<Row>();
  return results.map(toDomain);
}

export async function getStandInDomain(db: D1Database, id: string): Promise<StandInDomain | null> {
  const row = await db
    .prepare("SELECT id, name, status, records, created_at FROM dev_resend_domains WHERE id = ?")
    .bind(id)
    .first<Row>();
  return row ? toDomain(row) : null;
}

/**
 * What Resend would conclude after reading the DNS: 'verified' (every record found), 'failed' (none
 * found), or 'pending' again. Each record takes the same status. False when there is no such domain.
 */
export async function setStandInStatus(
  db: D1Database,
  id: string,
  status: "verified" | "failed" | "pending",
): Promise<boolean> {
  const found = await getStandInDomain(db, id);
  if (!found) return false;
  const records = found.records.map((r) => ({ ...r, status }));
  await db
    .prepare("UPDATE dev_resend_domains SET status = ?, records = ? WHERE id = ?")
    .bind(status, JSON.stringify(records), id)
    .run();
  return true;
}

/** Resend's JSON for a domain. */
function domainJson(d: StandInDomain) {
  return {
    object: "domain",
    id: d.id,
    name: d.name,
    status: d.status,
    created_at: new Date(d.createdAt).toISOString(),
    region: "eu-west-1",
    records: d.records,
  };
}

const error = (status: number, name: string, message: string) =>
  Response.json({ statusCode: status, name, message }, { status });

/**
 * A fetch answering Resend's Domains API from the stand-in's rows: POST /domains, GET /domains,
 * GET /domains/:id, POST /domains/:id/verify, DELETE /domains/:id, with Resend's shapes and error
 * bodies. Anything else is a 404 as Resend answers it.
 */
export function resendDomainsStandIn(db: D1Database) {
  return async (url: string, init: RequestInit): Promise<Response> => {
    const method = (init.method ?? "GET").toUpperCase();
    const path = new URL(url).pathname.replace(/\/+$/, "");
    const match = /^\/domains(?:\/([^/]+)(\/verify)?)?$/.exec(path);
    if (!match) return error(404, "not_found", "The requested endpoint does not exist.");
    const [, id, verify] = match;
    if (!id) {
      if (method === "GET") {
        const domains = await listStandInDomains(db);
        return Response.json({
          object: "list",
          data: domains.map((d) => {
            const { records: _records, ...json } = domainJson(d);
            return json;
          }),
        });
      }
      if (method !== "POST") return error(405, "method_not_allowed", "Method not allowed");
      let body: { name?: unknown };
      try {
        body = JSON.parse(String(init.body ?? "{}"));
      } catch {
        return error(422, "validation_error", "Invalid JSON body");
      }
      const name = typeof body.name === "string" ? body.name.toLowerCase() : "";
      if (!/^[a-z0-9.-]+\.[a-z0-9-]{2,}$/.test(name)) {
        return error(422, "validation_error", "The `name` field must be a valid domain.");
      }
      const taken = await db.prepare("SELECT id FROM dev_resend_domains WHERE name = ?").bind(name).first();
      if (taken) return error(403, "validation_error", `The domain ${name} has been registered already.`);
      const domain: StandInDomain = {
        id: crypto.randomUUID(),
        name,
        status: "not_started",
        records: standInRecords(name),
        createdAt: Date.now(),
      };
      await db
        .prepare("INSERT INTO dev_resend_domains (id, name, status, records, created_at) VALUES (?, ?, ?, ?, ?)")
        .bind(domain.id, domain.name, domain.status, JSON.stringify(domain.records), domain.createdAt)
        .run();
      return Response.json(domainJson(domain), { status: 201 });
    }
    const found = await getStandInDomain(db, decodeURIComponent(id));
    if (!found) return error(404, "not_found", "Domain not found");
    if (verify) {
      if (method !== "POST") return error(405, "method_not_allowed", "Method not allowed");
      // Verification starts: a domain not yet checked is now pending until a person decides.
      if (found.status === "not_started") await setStandInStatus(db, found.id, "pending");
      return Response.json({ object: "domain", id: found.id });
    }
    if (method === "GET") return Response.json(domainJson(found));
    if (method === "DELETE") {
      await db.prepare("DELETE FROM dev_resend_domains WHERE id = ?").bind(found.id).run();
      return Response.json({ object: "domain", id: found.id, deleted: true });
    }
    return error(405, "method_not_allowed", "Method not allowed");
  };
}
