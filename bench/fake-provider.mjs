// A local stand-in for Resend's POST /emails, rate limited like a real account: at most `perSecond`
// requests are accepted in any rolling second; beyond that it answers 429 with Retry-After: 1 (in
// Resend's error shape, which the SDK reads). It honours Idempotency-Key like Resend: a repeated key
// gets the first answer's id and sends nothing new. Its log is the receiving end of the engine run:
// how many messages each recipient really got.
import { createServer } from "node:http";

export function startFakeProvider({ perSecond = 2, port = 0 } = {}) {
  /** Accepted request times (ms), oldest first: the rolling window. */
  const window = [];
  const byKey = new Map();
  /** Messages actually "sent": one per new key (or per request without a key). */
  const delivered = [];
  const stats = { requests: 0, accepted: 0, rateLimited: 0, replays: 0, badRequests: 0 };
  let seq = 0;

  const server = createServer((req, res) => {
    const answer = (status, payload, headers = {}) => {
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(JSON.stringify(payload));
    };
    if (req.method !== "POST" || req.url !== "/emails") {
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
        return answer(
          429,
          {
            statusCode: 429,
            name: "rate_limit_exceeded",
            message: `Too many requests. You can only make ${perSecond} requests per second.`,
          },
          {
            "retry-after": "1",
            "ratelimit-limit": String(perSecond),
            "ratelimit-remaining": "0",
            "ratelimit-reset": "1",
          },
        );
      }
      window.push(now);
      stats.accepted += 1;
      let body;
      try {
        body = JSON.parse(raw);
      } catch {
        stats.badRequests += 1;
        return answer(422, { statusCode: 422, name: "validation_error", message: "Invalid JSON" });
      }
      const key = req.headers["idempotency-key"] ?? null;
      if (key && byKey.has(key)) {
        stats.replays += 1;
        return answer(200, { id: byKey.get(key) });
      }
      const id = `bench_${++seq}`;
      if (key) byKey.set(key, id);
      const to = Array.isArray(body.to) ? body.to[0] : body.to;
      delivered.push({ id, key, to: String(to).toLowerCase(), at: now });
      answer(200, { id });
    });
  });

  return new Promise((resolve) => {
    server.listen(port, "127.0.0.1", () => {
      const address = server.address();
      resolve({
        url: `http://127.0.0.1:${address.port}`,
        stats,
        delivered,
        /** Recipients that got more than one message, and how many extra messages that is. */
        duplicates() {
          const perRecipient = new Map();
          for (const m of delivered) perRecipient.set(m.to, (perRecipient.get(m.to) ?? 0) + 1);
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
        close: () => new Promise((r) => server.close(r)),
      });
    });
  });
}
