import type { Db } from "~/db/client.server";
import { type Bound, ownedBySession, type Rows, runBatch, statementOf } from "~/db/prepared.server";
import { hashToken } from "./crypto.server";
import {
  SESSION_USER_SQL,
  type SessionUser,
  sessionById,
  settleSession,
  type ValidatedSession,
  validateSessionToken,
} from "./session.server";

const NO_SESSION: Promise<ValidatedSession | null> = Promise.resolve(null);

/**
 * Runs `fn` on a later turn of the event loop. In the Workers runtime through its native
 * `scheduler.wait(0)`: with nodejs_compat the global setTimeout is Node's, whose Timeout object was
 * about 1.5% of a list page's Worker time for a timer that never needs cancelling
 *. Elsewhere (unit tests in Node), setTimeout.
 */
const nextTurn: (fn: () => void) => void = (() => {
  const scheduler = (globalThis as { scheduler?: { wait?: (ms: number) => Promise<void> } }).scheduler;
  const wait = scheduler?.wait?.bind(scheduler);
  return wait
    ? (fn) => {
        void wait(0).then(fn);
      }
    : (fn) => {
        setTimeout(fn, 0);
      };
})();

interface Reading {
  promise: Promise<ValidatedSession | null>;
  resolve(session: ValidatedSession | null): void;
  reject(error: unknown): void;
}

function reading(): Reading {
  let resolve!: Reading["resolve"];
  let reject!: Reading["reject"];
  const promise = new Promise<ValidatedSession | null>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

/**
 * The session of one request, read once, when first needed (docs/decisions/025). A page whose
 * loader runs one D1 batch reads it in that batch (`batch`): the session's statement first, the
 * page's statements scoped by the session's user through a subquery (its owner is SESSION_OWNER
 * when built), so the page costs one D1 call instead of two: the first call of a request carries
 * the binding's fixed cost, more than the session's own statement. Whoever else asks (`session`,
 * `user`: the root loader, a page without a batch, the API, the response's headers) shares that
 * reading, or reads it on its own when no page claimed it by the next turn of the event loop. Never
 * kept past the request: signing out, a password change or "sign out everywhere" ends a session on
 * every isolate at once.
 */
export class SessionGate {
  readonly #db: Db;
  readonly #token: string | null;
  readonly #now: number;
  /** Someone reads the session (a page's batch, or the statement on its own). */
  #claimed = false;
  #reading: Reading | null = null;
  #settled: ValidatedSession | null | undefined = undefined;

  constructor(db: Db, token: string | null, now = Date.now()) {
    this.#db = db;
    this.#token = token;
    this.#now = now;
  }

  /** The cookie's token; null without a session cookie. */
  get token() {
    return this.#token;
  }

  /** The session once read: undefined while no one has read it (or it is being read). */
  get settled() {
    return this.#token ? this.#settled : null;
  }

  #deferred() {
    if (!this.#reading) {
      const read = reading();
      read.promise.then(
        (session) => {
          this.#settled = session;
        },
        () => {},
      );
      this.#reading = read;
    }
    return this.#reading;
  }

  /**
   * The valid session (renewed if due), or null. Read on its own after this turn of the event loop
   * unless a page's loader claims it for its batch before then (loaders start together).
   */
  session({ now = false }: { now?: boolean } = {}): Promise<ValidatedSession | null> {
    const token = this.#token;
    if (!token) return NO_SESSION;
    const reading = this.#deferred();
    if (!this.#claimed) {
      this.#claimed = true;
      let started = false;
      const start = () => {
        if (started) return;
        started = true;
        validateSessionToken(this.#db, token, this.#now).then(reading.resolve, reading.reject);
      };
      // A page's batch may still claim it: `batch` takes over if it runs before the timer.
      if (now) start();
      else {
        this.#standalone = start;
        nextTurn(() => {
          if (this.#standalone === start) start();
        });
      }
    }
    return reading.promise;
  }

  /** Set while the session's own read waits for the next turn: a page's batch may take it over. */
  #standalone: (() => void) | null = null;

  /** The signed-in user, or null (`now`: read it at once, no page's batch will). */
  async user({ now = false }: { now?: boolean } = {}): Promise<SessionUser | null> {
    return (await this.session({ now }))?.user ?? null;
  }

  /**
   * `queries` in one D1 batch for the session's user: with the session's statement in front when
   * no one has read it yet, else for the user already read. Their owner is SESSION_OWNER. Without a
   * valid session, `rows` is null (nothing of them is used).
   */
  async batch<T extends readonly Bound<unknown>[]>(
    queries: T,
  ): Promise<{ user: SessionUser; rows: Rows<T> } | { user: null; rows: null }> {
    const token = this.#token;
    if (!token) return { user: null, rows: null };
    const waiting = this.#standalone;
    if (this.#claimed && !waiting) {
      const user = await this.user();
      return user ? { user, rows: await runBatch(this.#db, queries, user.id) } : { user: null, rows: null };
    }
    // This batch reads the session: the standalone read, if one was waiting, is called off.
    this.#claimed = true;
    this.#standalone = null;
    const reading = this.#deferred();
    const db = this.#db;
    const now = this.#now;
    let id: string;
    let lead: ReturnType<typeof sessionById>;
    let results: D1Result[];
    try {
      id = await hashToken(token);
      lead = sessionById(db, { id });
      results = await db.$client.batch([
        statementOf(lead),
        ...queries.map((q) => ownedBySession(db, q, SESSION_USER_SQL, [id, now])),
      ]);
    } catch (error) {
      // The page's statements failed: the session is read on its own, for the others and the
      // page's fallback (which then gives `user()`'s id to its statements).
      validateSessionToken(db, token, now).then(reading.resolve, reading.reject);
      throw error;
    }
    const session = await settleSession(db, id, lead.map(results[0])[0], now).catch((error) => {
      reading.reject(error);
      throw error;
    });
    reading.resolve(session);
    if (!session) return { user: null, rows: null };
    return { user: session.user, rows: queries.map((q, i) => q.map(results[i + 1])) as Rows<T> };
  }
}
