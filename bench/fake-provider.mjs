// A local stand-in for Resend's POST /emails and POST /emails/batch, rate limited like a real
// account: at most `perSecond` requests are accepted in any rolling second; beyond that it answers
// 429 with Retry-After: 1 (in Resend's error shape, which the SDK reads). It honours Idempotency-Key
// like Resend: a repeated key gets the first answer's id(s) and sends nothing new (a batch's key
// with a different body is refused with 409 invalid_idempotent_request). Its log is the receiving
// end of the engine run: how many messages each recipient really got.
//
// Faults (docs/decisions/021): with `faultRate` > 0, that share of the requests let through the
// rate limit fail, in turn, as one of `faultModes`:
//   "500"          answers 500, sends nothing
//   "hang"         never answers (the client's timeout ends it), sends nothing
//   "reset"        drops the connection, sends nothing
//   "429-burst"    answers 429 to this request and the next `burst` - 1 requests
//   "accept-hang"  sends, then never answers: the case that causes duplicates
import { createHash } from "node:crypto";
import { createServer } from "node:http";

// In turn, the one that causes duplicates first: a run that hits any fault hits it.
export const FAULT_MODES = ["accept-hang", "500", "hang", "reset", "429-burst"];

export function startFakeProvider({
  perSecond = 2,
  port = 0,
  faultRate = 0,
  faultModes = FAULT_MODES,
  burst = 3,
  random = Math.random,
} = {}) {
  /** Accepted request times (ms), oldest first: the rolling window. */
  const window = [];
  const byKey = new Map();
  /** Messages actually "sent": one per new key (or per request without a key). */
  const delivered = [];
  const stats = {
    requests: 0,
    accepted: 0,
    rateLimited: 0,
    replays: 0,
    badRequests: 0,
    batches: 0,
    faults: Object.fromEntries(faultModes.map((m) => [m, 0])),
  };
  let seq = 0;
  let faultTurn = 0;
  let burstLeft = 0;
  /** Responses held open (hang, accept-hang): closed when the server closes. */
  const held = new Set();

  const rateLimited = (answer) =>
    answer(
      429,
      {
        statusCode: 429,
        name: "rate_limit_exceeded",
        message: `Too many requests. You can only make ${perSecond} requests per second.`,
      },
      { "retry-after": "1", "ratelimit-limit": String(perSecond), "ratelimit-remaining": "0", "ratelimit-reset": "1" },
    );

  const server = createServer((req, res) => {
    const answer = (status, payload, headers = {}) => {
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(JSON.stringify(payload));
    };
    const isBatch = req.url === "/emails/batch";
    if (req.method !== "POST" || (req.url !== "/emails" && !isBatch)) {
      return answer(404, { statusCode: 404, name: "not_found", message: "Not found" });
    }
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (chunk) => {
      raw += chunk;
    });
    req.on("end", () => {
      stats.requests += 1;
      const now = Date.now();
      while (window.length > 0 && window[0] <= now - 1000) window.shift();
      if (window.length >= perSecond) {
        stats.rateLimited += 1;
        return rateLimited(answer);
      }
      window.push(now);
      // A fault, when one is due: a 429 burst goes on; else this share of requests fails.
      let fault = null;
      if (burstLeft > 0) {
        burstLeft -= 1;
        fault = "429-burst";
      } else if (faultRate > 0 && random() < faultRate) {
        fault = faultModes[faultTurn++ % faultModes.length];
        stats.faults[fault] += 1;
        if (fault === "429-burst") burstLeft = burst - 1;
      }
      if (fault === "429-burst") {
        stats.rateLimited += 1;
        return rateLimited(answer);
      }
      if (fault === "500") {
        return answer(500, { statusCode: 500, name: "internal_server_error", message: "Internal server error" });
      }
      if (fault === "hang") {
        held.add(res);
        return;
      }
      if (fault === "reset") return req.socket.destroy();
      stats.accepted += 1;
      let body;
      try {
        body = JSON.parse(raw);
      } catch {
        stats.badRequests += 1;
        return answer(422, { statusCode: 422, name: "validation_error", message: "Invalid JSON" });
      }
      const emails = isBatch ? body : [body];
      if (!Array.isArray(emails) || emails.length === 0 || emails.length > 100) {
        stats.badRequests += 1;
        return answer(422, { statusCode: 422, name: "validation_error", message: "A batch holds 1 to 100 emails" });
      }
      const key = req.headers["idempotency-key"] ?? null;
      const digest = createHash("sha256").update(raw).digest("hex");
      const reply = (ids) => {
        if (fault === "accept-hang") {
          held.add(res);
          return;
        }
        answer(200, isBatch ? { data: ids.map((id) => ({ id })) } : { id: ids[0] });
      };
      const seen = key ? byKey.get(key) : undefined;
      if (seen) {
        if (isBatch && seen.digest !== digest) {
          return answer(409, {
            statusCode: 409,
            name: "invalid_idempotent_request",
            message: "Same idempotency key used with a different request payload.",
          });
        }
        stats.replays += 1;
        return reply(seen.ids);
      }
      if (isBatch) stats.batches += 1;
      const ids = emails.map((email) => {
        const id = `bench_${++seq}`;
        const to = Array.isArray(email.to) ? email.to[0] : email.to;
        delivered.push({ id, key, to: String(to).toLowerCase(), at: now });
        return id;
      });
      if (key) byKey.set(key, { digest, ids });
      reply(ids);
    });
  });

  return new Promise((resolve) => {
    server.listen(port, "127.0.0.1", () => {
      const address = server.address();
      resolve({
        url: `http://127.0.0.1:${address.port}`,
        stats,
        delivered,
        /**
         * Recipients that got more than one message, and how many extra messages that is; only among
         * the addresses `only` accepts (the debtors', when the run's users are also told of events).
         */
        duplicates(only = () => true) {
          const perRecipient = new Map();
          for (const m of delivered) if (only(m.to)) perRecipient.set(m.to, (perRecipient.get(m.to) ?? 0) + 1);
          let recipients = 0;
          let extra = 0;
          for (const n of perRecipient.values()) {
            if (n > 1) {
              recipients += 1;
              extra += n - 1;
            }
          }
          return { recipients, extra, distinct: perRecipient.size };
        },
        close: () =>
          new Promise((r) => {
            for (const res of held) res.destroy();
            server.close(r);
            server.closeAllConnections?.();
          }),
      });
    });
  });
}
