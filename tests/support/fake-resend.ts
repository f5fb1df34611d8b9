import { createServer, type IncomingMessage, type Server } from "node:http";
import { type DnsRecord, standInRecords } from "../../app/domain/sending-domain";

/**
 * A fake Resend HTTP API for the integration tests (Node side). It records every POST /emails,
 * honours Idempotency-Key like Resend (a repeated key returns the first id and sends nothing
 * new), can be told to answer the next requests for an address with errors, and can be rate
 * limited like Resend (429 with Retry-After beyond N requests per second).
 *
 * POST /emails/batch takes an array of e-mails under one Idempotency-Key, like Resend's strict mode:
 * a repeated key with the same body gets the first answer's ids and sends nothing new, with another
 * body a 409 invalid_idempotent_request; one invalid e-mail (see /__invalid) refuses the whole batch
 * with 422. Each e-mail of a batch is one entry in /__requests and /__delivered, with the batch's key.
 *
 * Control API for the tests (called from workerd over HTTP):
 *   POST /__program  {to, responses: [{status, body?, headers?} | {fault}]}  next answers for mail
 *                    to `to` (a batch takes the next answer of its first recipient that has one),
 *                    e.g. {status: 429, headers: {"retry-after": "2"}}. Faults: "hang" (never
 *                    answers, sends nothing), "reset" (drops the connection, sends nothing),
 *                    "accept-hang" (sends, then never answers: the case that causes duplicates)
 *   POST /__invalid  {to}  mail to `to` is refused as invalid (422), alone or in any batch
 *   POST /__limit    {perSecond: number | null, domain?}  at most that many POST /emails (to
 *                    addresses ending in `domain`, when given) in any rolling
 *                    second are let through; the others get 429 with Retry-After (whole seconds
 *                    until a place frees up) and change nothing. null: no limit (the default).
 *   GET  /__requests?to=   every attempt: {idempotencyKey, authorization, body, status, at}
 *   GET  /__delivered?to=  messages actually "sent" (one per key)
 *
 * The Domains API (docs/decisions/059-sending-domains.md), in memory, with Resend's shapes: POST
 * /domains {name} (201, its records from app/domain/sending-domain.ts standInRecords; a name held
 * already: 403), GET /domains, GET /domains/:id, POST /domains/:id/verify (not_started → pending),
 * DELETE /domains/:id. A missing domain: 404 not_found. Control:
 *   POST /__domain-status  {name, status}  what Resend concluded from the DNS ("verified", "failed"…);
 *                          each record takes the status too; `{name, remove: true}` forgets it
 *   POST /__domain-program {name, responses: [{status, body?} | {fault: "reset"}]}  next answers
 *                          to requests about that domain (its create, or its id)
 *   GET  /__domain-requests?name=  every Domains request about it: {method, path, status}
 */
export interface FakeResend {
  url: string;
  server: Server;
}

/** A programmed answer: its status, body (else an error body for the status) and headers. */
interface Programmed {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  fault?: "hang" | "reset" | "accept-hang";
}

interface Attempt {
  /** In a batch: how many e-mails it carried (each has its own entry). */
  batch?: number;
  idempotencyKey: string | null;
  authorization: string | null;
  body: Record<string, unknown>;
  status: number;
  at: number;
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    let data = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (data += chunk));
    req.on("end", () => resolve(data));
    req.on("error", reject);
  });

export function startFakeResend(): Promise<FakeResend> {
  const attempts: Attempt[] = [];
  const delivered: { id: string; idempotencyKey: string | null; body: Record<string, unknown>; at: number }[] = [];
  const byKey = new Map<string, string>();
  /** A batch's key: the body it was first sent with and the ids it answered. */
  const batches = new Map<string, { raw: string; ids: string[] }>();
  const invalid = new Set<string>();
  const programmed = new Map<string, Programmed[]>();
  let seq = 0;
  /** The Domains API's domains by id, and programmed answers and requests by domain name. */
  interface FakeDomain {
    object: "domain";
    id: string;
    name: string;
    status: string;
    created_at: string;
    region: string;
    records: DnsRecord[];
  }
  const domains = new Map<string, FakeDomain>();
  const domainProgram = new Map<string, Programmed[]>();
  const domainRequests: { name: string; method: string; path: string; status: number }[] = [];
  /** The rate limit: requests per rolling second, and when the requests let through were made. */
  let perSecond: number | null = null;
  let passed: number[] = [];
  /** Only mail to addresses ending in this is limited (test files share the fake); null: all. */
  let limitDomain: string | null = null;

  /** Null when the request may go through now (it is counted), else the Retry-After in seconds. */
  const limited = (now: number, to: string): number | null => {
    if (perSecond === null || (limitDomain !== null && !to.endsWith(limitDomain))) return null;
    passed = passed.filter((at) => at > now - 1000);
    if (passed.length < perSecond) {
      passed.push(now);
      return null;
    }
    return Math.max(1, Math.ceil((passed[0]! + 1000 - now) / 1000));
  };

  const recipient = (body: Record<string, unknown>) => {
    const to = body.to;
    return String(Array.isArray(to) ? to[0] : to).toLowerCase();
  };

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { ...headers, "content-type": "application/json" });
      res.end(JSON.stringify(payload));
    };
    try {
      if (req.method === "POST" && url.pathname === "/__program") {
        const { to, responses } = JSON.parse(await readBody(req)) as { to: string; responses: Programmed[] };
        programmed.set(to.toLowerCase(), [...(programmed.get(to.toLowerCase()) ?? []), ...responses]);
        return send(200, { ok: true });
      }
      if (req.method === "POST" && url.pathname === "/__limit") {
        const { perSecond: limit, domain } = JSON.parse(await readBody(req)) as {
          perSecond: number | null;
          domain?: string;
        };
        if (limit !== null && !(Number.isInteger(limit) && limit > 0)) {
          return send(400, { ok: false, error: "perSecond must be a positive integer or null" });
        }
        perSecond = limit;
        limitDomain = typeof domain === "string" && domain !== "" ? domain.toLowerCase() : null;
        passed = [];
        return send(200, { ok: true, perSecond });
      }
      if (req.method === "GET" && (url.pathname === "/__requests" || url.pathname === "/__delivered")) {
        const to = url.searchParams.get("to")?.toLowerCase();
        const list = url.pathname === "/__requests" ? attempts : delivered;
        return send(200, to ? list.filter((a) => recipient(a.body) === to) : list);
      }
      if (req.method === "POST" && url.pathname === "/__invalid") {
        const { to } = JSON.parse(await readBody(req)) as { to: string };
        invalid.add(to.toLowerCase());
        return send(200, { ok: true });
      }
      if (req.method === "POST" && url.pathname === "/__domain-status") {
        const { name, status, remove } = JSON.parse(await readBody(req)) as {
          name: string;
          status?: string;
          remove?: boolean;
        };
        const found = [...domains.values()].find((d) => d.name === name.toLowerCase());
        if (!found) return send(404, { ok: false });
        if (remove) domains.delete(found.id);
        else if (status) {
          found.status = status;
          found.records = found.records.map((r) => ({ ...r, status }));
        }
        return send(200, { ok: true, id: found.id });
      }
      if (req.method === "POST" && url.pathname === "/__domain-program") {
        const { name, responses } = JSON.parse(await readBody(req)) as { name: string; responses: Programmed[] };
        const key = name.toLowerCase();
        domainProgram.set(key, [...(domainProgram.get(key) ?? []), ...responses]);
        return send(200, { ok: true });
      }
      if (req.method === "GET" && url.pathname === "/__domain-requests") {
        const name = url.searchParams.get("name")?.toLowerCase();
        return send(200, name ? domainRequests.filter((r) => r.name === name) : domainRequests);
      }
      const domainPath = /^\/domains(?:\/([^/]+)(\/verify)?)?\/?$/.exec(url.pathname);
      if (domainPath) {
        const [, rawId, verify] = domainPath;
        const id = rawId ? decodeURIComponent(rawId) : undefined;
        const raw = req.method === "POST" && !id ? await readBody(req) : "";
        let name = id ? (domains.get(id)?.name ?? "") : "";
        if (!id && req.method === "POST") {
          try {
            name = String((JSON.parse(raw) as { name?: unknown }).name ?? "").toLowerCase();
          } catch {
            name = "";
          }
        }
        const answer = (status: number, payload: unknown) => {
          domainRequests.push({ name, method: req.method ?? "", path: url.pathname, status });
          return send(status, payload);
        };
        const next = name ? domainProgram.get(name)?.shift() : undefined;
        if (next?.fault) {
          domainRequests.push({ name, method: req.method ?? "", path: url.pathname, status: 0 });
          return req.socket.destroy();
        }
        if (next?.status !== undefined) {
          return answer(
            next.status,
            next.body ?? { statusCode: next.status, name: "programmed_error", message: `Programmed ${next.status}` },
          );
        }
        if (!id) {
          if (req.method === "GET") {
            return answer(200, { object: "list", data: [...domains.values()].map(({ records: _r, ...d }) => d) });
          }
          if (req.method !== "POST") return answer(405, { statusCode: 405, name: "method_not_allowed", message: "" });
          if (!/^[a-z0-9.-]+\.[a-z0-9-]{2,}$/.test(name)) {
            return answer(422, {
              statusCode: 422,
              name: "validation_error",
              message: "The `name` field must be a valid domain.",
            });
          }
          if ([...domains.values()].some((d) => d.name === name)) {
            return answer(403, {
              statusCode: 403,
              name: "validation_error",
              message: `The domain ${name} has been registered already.`,
            });
          }
          const domain: FakeDomain = {
            object: "domain",
            id: `dom_${++seq}`,
            name,
            status: "not_started",
            created_at: new Date().toISOString(),
            region: "us-east-1",
            records: standInRecords(name),
          };
          domains.set(domain.id, domain);
          return answer(201, domain);
        }
        const found = domains.get(id);
        if (!found) return answer(404, { statusCode: 404, name: "not_found", message: "Domain not found" });
        if (verify && req.method === "POST") {
          if (found.status === "not_started") found.status = "pending";
          return answer(200, { object: "domain", id: found.id });
        }
        if (!verify && req.method === "GET") return answer(200, found);
        if (!verify && req.method === "DELETE") {
          domains.delete(found.id);
          return answer(200, { object: "domain", id: found.id, deleted: true });
        }
        return answer(405, { statusCode: 405, name: "method_not_allowed", message: "Method not allowed" });
      }
      if (req.method === "POST" && url.pathname === "/emails/batch") {
        const raw = await readBody(req);
        const emails = JSON.parse(raw) as Record<string, unknown>[];
        const idempotencyKey = (req.headers["idempotency-key"] as string | undefined) ?? null;
        const authorization = (req.headers.authorization as string | undefined) ?? null;
        const record = (status: number) => {
          const at = Date.now();
          for (const body of emails) {
            attempts.push({ batch: emails.length, idempotencyKey, authorization, body, status, at });
          }
        };
        if (!Array.isArray(emails) || emails.length === 0 || emails.length > 100) {
          record(422);
          return send(422, { statusCode: 422, name: "validation_error", message: "1 to 100 emails" });
        }
        const retryAfter = limited(Date.now(), recipient(emails[0]!));
        if (retryAfter !== null) {
          record(429);
          return send(
            429,
            { statusCode: 429, name: "rate_limit_exceeded", message: "Too many requests." },
            { "retry-after": String(retryAfter) },
          );
        }
        const programmedFor = emails.map((e) => programmed.get(recipient(e))).find((q) => q && q.length > 0);
        const next = programmedFor?.shift();
        if (next?.fault === "hang") return record(0);
        if (next?.fault === "reset") {
          record(0);
          return req.socket.destroy();
        }
        if (next && next.status !== undefined) {
          record(next.status);
          return send(
            next.status,
            next.body ?? { statusCode: next.status, name: "programmed_error", message: `Programmed ${next.status}` },
            next.headers,
          );
        }
        if (emails.some((e) => invalid.has(recipient(e)))) {
          record(422);
          return send(422, { statusCode: 422, name: "validation_error", message: "Invalid `to` field." });
        }
        const seen = idempotencyKey ? batches.get(idempotencyKey) : undefined;
        if (seen && seen.raw !== raw) {
          record(409);
          return send(409, {
            statusCode: 409,
            name: "invalid_idempotent_request",
            message: "Same idempotency key used with a different request payload.",
          });
        }
        record(next?.fault === "accept-hang" ? 0 : 200);
        let ids = seen?.ids;
        if (!ids) {
          ids = emails.map(() => `fake_${++seq}`);
          if (idempotencyKey) batches.set(idempotencyKey, { raw, ids });
          emails.forEach((body, i) => {
            delivered.push({ id: ids![i]!, idempotencyKey, body, at: Date.now() });
          });
        }
        if (next?.fault === "accept-hang") return;
        return send(200, { data: ids.map((id) => ({ id })) });
      }
      if (req.method === "POST" && url.pathname === "/emails") {
        const body = JSON.parse(await readBody(req)) as Record<string, unknown>;
        const idempotencyKey = (req.headers["idempotency-key"] as string | undefined) ?? null;
        const authorization = (req.headers.authorization as string | undefined) ?? null;
        const now = Date.now();
        const retryAfter = limited(now, recipient(body));
        if (retryAfter !== null) {
          attempts.push({ idempotencyKey, authorization, body, status: 429, at: now });
          return send(
            429,
            {
              statusCode: 429,
              name: "rate_limit_exceeded",
              message: "Too many requests. Please limit the number of requests per second.",
            },
            { "retry-after": String(retryAfter) },
          );
        }
        const queue = programmed.get(recipient(body));
        const next = queue?.shift();
        if (next?.fault) attempts.push({ idempotencyKey, authorization, body, status: 0, at: Date.now() });
        if (next?.fault === "hang") return;
        if (next?.fault === "reset") return req.socket.destroy();
        if (next && next.status !== undefined) {
          attempts.push({ idempotencyKey, authorization, body, status: next.status, at: Date.now() });
          return send(
            next.status,
            next.body ?? { statusCode: next.status, name: "programmed_error", message: `Programmed ${next.status}` },
            next.headers,
          );
        }
        if (invalid.has(recipient(body))) {
          attempts.push({ idempotencyKey, authorization, body, status: 422, at: Date.now() });
          return send(422, { statusCode: 422, name: "validation_error", message: "Invalid `to` field." });
        }
        if (!next) attempts.push({ idempotencyKey, authorization, body, status: 200, at: Date.now() });
        if (idempotencyKey && byKey.has(idempotencyKey)) {
          return next ? undefined : send(200, { id: byKey.get(idempotencyKey) });
        }
        const id = `fake_${++seq}`;
        if (idempotencyKey) byKey.set(idempotencyKey, id);
        delivered.push({ id, idempotencyKey, body, at: Date.now() });
        // "accept-hang": sent, and never answered.
        if (next) return;
        return send(200, { id });
      }
      send(404, { statusCode: 404, name: "not_found", message: "Not found" });
    } catch (error) {
      send(500, { statusCode: 500, name: "fake_error", message: String(error) });
    }
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.unref();
      resolve({ url: `http://127.0.0.1:${port}`, server });
    });
  });
}
