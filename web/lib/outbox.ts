import { type DBSchema, openDB } from "idb";

// The member app's outbox (DESIGN §6 "The door", docs/decisions/069): every order the order form takes is first
// written here with its own Idempotency-Key and only then sent, so a lost answer, a retry or a reload never makes a
// second order: the server answers a repeated key with the first answer. Orders that could not be sent wait
// here (IndexedDB, so a reload or a closed tab loses nothing) until the next try.

/** The customer's fields of an order as the order form takes them (orderInputSchema's public spellings). */
export type OrderFields = {
  name: string;
  email: string;
  phone: string;
  address: string;
  postalCode: string;
  city: string;
  quantity: number;
  notes: string;
};

/** POST /orders/create's body as the order form sends it. */
export type OrderRequest = OrderFields & { tabler_id: number; gate_token?: string };

export type OutboxEntry = {
  /** The Idempotency-Key, given when the order is taken and sent with every try. */
  key: string;
  request: OrderRequest;
  /** For the list on screen: who took it. */
  tablerName: string;
  takenAt: string;
  /** Why the last try failed, in Dutch; null before the first try. */
  failure: string | null;
  /** The server refused it (a 4xx that will not change): not sent again; the member may remove it. */
  refused: boolean;
};

export type SendOutcome = { kind: "sent"; reference: string } | { kind: "retry"; reason: string } | { kind: "refused"; reason: string };

/**
 * How long the page waits before it tries again by itself after a send that met no connection: 3 s, doubling, at
 * most 30 s. The browser's `online` is not enough: a phone in a street without signal often stays "online", and
 * then never says so again (docs/decisions/069, amendment).
 */
export function retryDelayMs(failedTries: number): number {
  return Math.min(30_000, 3_000 * 2 ** Math.max(0, failedTries - 1));
}

export const ORDER_CREATE_URL = "/orders/create";
export const NO_CONNECTION = "Geen verbinding met de server.";
const UNEXPECTED_ANSWER = "Onverwacht antwoord van de server.";
/** A send that hangs (a connection that is there but carries nothing) counts as no connection after this long. */
const SEND_TIMEOUT_MS = 20_000;

/** Answers that may change on a later try: a timeout, the key still in use by a first request, a rate limit, server trouble. */
const RETRY_STATUSES = new Set([408, 409, 425, 429]);

/** What the server's answer to one send means for the outbox. */
export function classifyAnswer(status: number, body: unknown): SendOutcome {
  const answer = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
  if (status >= 200 && status < 300) {
    return answer.success === true && typeof answer.order_reference === "string"
      ? { kind: "sent", reference: answer.order_reference }
      : // A portal page or a proxy answered in the server's place: the order has not arrived.
        { kind: "retry", reason: UNEXPECTED_ANSWER };
  }
  const text = typeof answer.error === "string" && answer.error.trim() !== "" ? answer.error.trim() : null;
  if (status >= 500) return { kind: "retry", reason: `De server kon de bestelling nu niet aannemen (fout ${status}).` };
  if (RETRY_STATUSES.has(status)) return { kind: "retry", reason: text ?? `De server vraagt later opnieuw te proberen (fout ${status}).` };
  return { kind: "refused", reason: text ?? `De server weigert de bestelling (fout ${status}).` };
}

/** One try: POST /orders/create with the entry's key. Never throws. */
export function sendOrder(entry: OutboxEntry, fetchImpl: typeof fetch = fetch): Promise<SendOutcome> {
  return postOrder(entry.key, entry.request, fetchImpl);
}

/** POST /orders/create of `body` under the Idempotency-Key `key`, its answer classified; never throws (the seller's page sends this way too). */
export async function postOrder(key: string, body: unknown, fetchImpl: typeof fetch = fetch): Promise<SendOutcome> {
  let response: Response;
  try {
    response = await fetchImpl(ORDER_CREATE_URL, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "Idempotency-Key": key },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    });
  } catch {
    return { kind: "retry", reason: NO_CONNECTION };
  }
  let answer: unknown = null;
  try {
    answer = await response.json();
  } catch {
    // Not JSON: classifyAnswer decides by the status alone.
  }
  return classifyAnswer(response.status, answer);
}

/** Where the entries are kept: IndexedDB on a phone, memory where the browser offers no IndexedDB. */
export type OutboxStore = {
  put(entry: OutboxEntry): Promise<void>;
  get(key: string): Promise<OutboxEntry | undefined>;
  delete(key: string): Promise<void>;
  /** Oldest first. */
  all(): Promise<OutboxEntry[]>;
};

interface OutboxDb extends DBSchema {
  orders: { key: string; value: OutboxEntry; indexes: { takenAt: string } };
}

export const OUTBOX_DB = "kerstactie-outbox";

export async function openIdbStore(name = OUTBOX_DB): Promise<OutboxStore> {
  const db = await openDB<OutboxDb>(name, 1, {
    upgrade(database) {
      database.createObjectStore("orders", { keyPath: "key" }).createIndex("takenAt", "takenAt");
    },
  });
  return {
    async put(entry) {
      await db.put("orders", entry);
    },
    get: (key) => db.get("orders", key),
    delete: (key) => db.delete("orders", key),
    all: () => db.getAllFromIndex("orders", "takenAt"),
  };
}

export function memoryStore(): OutboxStore {
  const entries = new Map<string, OutboxEntry>();
  return {
    async put(entry) {
      entries.set(entry.key, structuredClone(entry));
    },
    get: async (key) => structuredClone(entries.get(key)),
    delete: async (key) => {
      entries.delete(key);
    },
    all: async () => [...entries.values()].sort((a, b) => a.takenAt.localeCompare(b.takenAt)).map((entry) => structuredClone(entry)),
  };
}

/** Runs `task` while no other send runs: across tabs with the Web Locks API, else within this page. */
export type Exclusive = <T>(task: () => Promise<T>) => Promise<T>;

const LOCK_NAME = "kerstactie-outbox-send";
let localQueue: Promise<unknown> = Promise.resolve();

export const exclusive: Exclusive = (task) => {
  if (typeof navigator !== "undefined" && navigator.locks) return navigator.locks.request(LOCK_NAME, task);
  const run = localQueue.then(task, task);
  localQueue = run.catch(() => undefined);
  return run;
};

/**
 * The last moment an order was taken on this page, in ms. Orders list by the moment taken, and the store breaks a tie
 * by the random key, so two orders taken in one millisecond get moments one apart, in the order taken.
 */
let lastTakenMs = 0;

export class Outbox {
  #flushing: Promise<void> | null = null;
  #again = false;

  constructor(
    private readonly store: OutboxStore,
    private readonly send: (entry: OutboxEntry) => Promise<SendOutcome> = sendOrder,
    private readonly lock: Exclusive = exclusive,
    private readonly newKey: () => string = () => crypto.randomUUID(),
  ) {}

  list(): Promise<OutboxEntry[]> {
    return this.store.all();
  }

  remove(key: string): Promise<void> {
    return this.store.delete(key);
  }

  /** Puts the order in the outbox with a new key; nothing is sent yet. */
  async take(request: OrderRequest, tablerName: string, now = new Date()): Promise<OutboxEntry> {
    lastTakenMs = Math.max(now.getTime(), lastTakenMs + 1);
    const entry: OutboxEntry = {
      key: this.newKey(),
      request,
      tablerName,
      takenAt: new Date(lastTakenMs).toISOString(),
      failure: null,
      refused: false,
    };
    await this.store.put(entry);
    return entry;
  }

  /**
   * The order form's submit: the order goes into the outbox, then is sent at once. A refusal takes it out again
   * (the form shows the reason and keeps what was typed); a failed send leaves it waiting.
   */
  async submit(request: OrderRequest, tablerName: string): Promise<SendOutcome> {
    const entry = await this.take(request, tablerName);
    const outcome = await this.lock(() => this.#sendAndRecord(entry));
    if (outcome.kind === "refused") await this.store.delete(entry.key);
    return outcome;
  }

  /**
   * Sends every waiting order, oldest first, until one fails for a reason that would stop the rest too (no
   * connection, server trouble). Refused ones stay out of it. A call while one runs joins it, and the outbox is
   * gone through once more after it: the call may come from `online` while the running one still meets no
   * connection.
   */
  flush(): Promise<void> {
    if (this.#flushing) {
      this.#again = true;
      return this.#flushing;
    }
    this.#flushing = (async () => {
      do {
        this.#again = false;
        await this.lock(() => this.#sendAll());
      } while (this.#again);
    })().finally(() => {
      this.#flushing = null;
    });
    return this.#flushing;
  }

  async #sendAll(): Promise<void> {
    for (const entry of await this.store.all()) {
      if (entry.refused) continue;
      const outcome = await this.#sendAndRecord(entry);
      if (outcome.kind === "retry") break;
    }
  }

  async #sendAndRecord(entry: OutboxEntry): Promise<SendOutcome> {
    const outcome = await this.send(entry);
    if (outcome.kind === "sent") {
      await this.store.delete(entry.key);
    } else {
      // Another tab may have sent it meanwhile (the same key made it harmless): then there is nothing to record.
      const current = await this.store.get(entry.key);
      if (current) await this.store.put({ ...current, failure: outcome.reason, refused: outcome.kind === "refused" });
    }
    return outcome;
  }
}

let shared: Promise<Outbox> | null = null;

/** The page's outbox, opened once; in memory where IndexedDB cannot be opened (then a reload forgets it). */
export function pageOutbox(): Promise<Outbox> {
  shared ??= openIdbStore()
    .catch((error: unknown) => {
      console.error("The order outbox cannot use IndexedDB; it keeps orders in memory only", error);
      return memoryStore();
    })
    .then((store) => new Outbox(store));
  return shared;
}
