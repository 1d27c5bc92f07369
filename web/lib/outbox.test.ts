import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";

import {
  classifyAnswer,
  memoryStore,
  NO_CONNECTION,
  openIdbStore,
  Outbox,
  type OrderRequest,
  type OutboxEntry,
  type SendOutcome,
  retryDelayMs,
  sendOrder,
} from "./outbox";

const ORDER: OrderRequest = {
  tabler_id: 7,
  name: "Anna Visser",
  email: "anna@example.nl",
  phone: "0517 412345",
  address: "Voorstraat 12",
  postalCode: "8861 BK",
  city: "Harlingen",
  quantity: 2,
  notes: "",
  gate_token: "7.123.abc",
};

let dbCount = 0;
const freshStore = () => openIdbStore(`outbox-test-${++dbCount}`);

/** A server stand-in: answers each send from `answer` and records the keys it saw. */
function fakeServer(answer: (entry: OutboxEntry, call: number) => SendOutcome) {
  const keys: string[] = [];
  const send = async (entry: OutboxEntry) => {
    keys.push(entry.key);
    return answer(entry, keys.length);
  };
  return { keys, send };
}

describe("classifyAnswer", () => {
  it("takes a success with a reference as sent", () => {
    expect(classifyAnswer(200, { success: true, order_reference: "KP-2026-0001", order_url: "x" })).toEqual({
      kind: "sent",
      reference: "KP-2026-0001",
    });
  });

  it("retries a 2xx that is not the server's answer", () => {
    expect(classifyAnswer(200, null)).toEqual({ kind: "retry", reason: "Onverwacht antwoord van de server." });
  });

  it("retries server trouble, rate limits and a key still in use", () => {
    expect(classifyAnswer(503, { success: false, error: "Onderhoud", code: "MAINTENANCE" })).toEqual({
      kind: "retry",
      reason: "De server kon de bestelling nu niet aannemen (fout 503).",
    });
    expect(
      classifyAnswer(429, { success: false, error: "Te veel bestellingen. Probeer het later opnieuw.", code: "RATE_LIMITED" }),
    ).toEqual({
      kind: "retry",
      reason: "Te veel bestellingen. Probeer het later opnieuw.",
    });
    expect(classifyAnswer(409, { success: false, code: "IDEMPOTENCY_KEY_IN_USE" }).kind).toBe("retry");
  });

  it("keeps the server's Dutch text for a refusal", () => {
    expect(classifyAnswer(400, { success: false, error: "Onbekende tabler.", code: "VALIDATION_FAILED" })).toEqual({
      kind: "refused",
      reason: "Onbekende tabler.",
    });
    expect(classifyAnswer(422, {})).toEqual({ kind: "refused", reason: "De server weigert de bestelling (fout 422)." });
  });
});

describe("retryDelayMs", () => {
  it("waits 3 s after the first failed send, doubling, and never more than 30 s", () => {
    expect([1, 2, 3, 4, 5, 6, 20].map(retryDelayMs)).toEqual([3_000, 6_000, 12_000, 24_000, 30_000, 30_000, 30_000]);
  });
});

describe("sendOrder", () => {
  it("posts the order as JSON with the entry's key", async () => {
    const calls: { url: string; init: RequestInit }[] = [];
    const fetchStub = (async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return new Response(JSON.stringify({ success: true, order_reference: "KP-2026-0009", order_url: "u" }), { status: 200 });
    }) as unknown as typeof fetch;
    const entry: OutboxEntry = { key: "k-1", request: ORDER, tablerName: "Jan", takenAt: "", failure: null, refused: false };
    expect(await sendOrder(entry, fetchStub)).toEqual({ kind: "sent", reference: "KP-2026-0009" });
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toBe("/orders/create");
    expect(calls[0]?.init.method).toBe("POST");
    expect(calls[0]?.init.headers).toMatchObject({ "Idempotency-Key": "k-1", "Content-Type": "application/json" });
    expect(JSON.parse(String(calls[0]?.init.body))).toEqual(ORDER);
  });

  it("answers no connection when fetch fails, and reads a non-JSON answer by its status", async () => {
    const entry: OutboxEntry = { key: "k-2", request: ORDER, tablerName: "Jan", takenAt: "", failure: null, refused: false };
    const offline = (async () => {
      throw new TypeError("Failed to fetch");
    }) as unknown as typeof fetch;
    expect(await sendOrder(entry, offline)).toEqual({ kind: "retry", reason: NO_CONNECTION });
    const gateway = (async () => new Response("<html>Bad gateway</html>", { status: 502 })) as unknown as typeof fetch;
    expect(await sendOrder(entry, gateway)).toEqual({ kind: "retry", reason: "De server kon de bestelling nu niet aannemen (fout 502)." });
  });
});

describe("Outbox on IndexedDB", () => {
  it("stores the order with its key before the send, and sends that key on every try", async () => {
    const store = await freshStore();
    let seenInStore: OutboxEntry[] = [];
    const server = fakeServer((_, call) => (call === 1 ? { kind: "retry", reason: NO_CONNECTION } : { kind: "sent", reference: "KP-1" }));
    const outbox = new Outbox(
      store,
      async (entry) => {
        seenInStore = await store.all();
        return server.send(entry);
      },
      undefined,
      () => "key-a",
    );

    expect(await outbox.submit(ORDER, "Jan de Vries")).toEqual({ kind: "retry", reason: NO_CONNECTION });
    expect(seenInStore.map((entry) => entry.key)).toEqual(["key-a"]);
    const [waiting] = await outbox.list();
    expect(waiting).toMatchObject({ key: "key-a", request: ORDER, tablerName: "Jan de Vries", failure: NO_CONNECTION, refused: false });

    await outbox.flush();
    expect(server.keys).toEqual(["key-a", "key-a"]);
    expect(await outbox.list()).toEqual([]);
  });

  it("keeps waiting orders across a reopen of the database (a reload)", async () => {
    const name = `outbox-test-${++dbCount}`;
    const first = new Outbox(await openIdbStore(name), async () => ({ kind: "retry", reason: NO_CONNECTION }));
    await first.submit(ORDER, "Jan");
    await first.submit({ ...ORDER, name: "Bert" }, "Jan");
    const reopened = new Outbox(await openIdbStore(name), async () => ({ kind: "sent", reference: "KP" }));
    expect((await reopened.list()).map((entry) => entry.request.name)).toEqual(["Anna Visser", "Bert"]);
    await reopened.flush();
    expect(await reopened.list()).toEqual([]);
  });

  it("lists two orders taken in the same millisecond in the order taken, whatever their keys", async () => {
    const keys = ["z-later-key", "a-earlier-key"];
    const outbox = new Outbox(
      await freshStore(),
      async () => ({ kind: "retry", reason: NO_CONNECTION }),
      undefined,
      () => keys.shift()!,
    );
    const now = new Date(Date.UTC(2030, 0, 1, 12));
    await outbox.take({ ...ORDER, name: "Eerst" }, "Jan", now);
    await outbox.take({ ...ORDER, name: "Daarna" }, "Jan", now);
    const listed = await outbox.list();
    expect(listed.map((entry) => entry.request.name)).toEqual(["Eerst", "Daarna"]);
    expect(listed.map((entry) => entry.takenAt)).toEqual(["2030-01-01T12:00:00.000Z", "2030-01-01T12:00:00.001Z"]);
  });

  it("sends oldest first and stops at the first failure that would stop the rest", async () => {
    const store = await freshStore();
    let keyCount = 0;
    const queued = new Outbox(
      store,
      async () => ({ kind: "retry", reason: NO_CONNECTION }),
      undefined,
      () => `k${++keyCount}`,
    );
    for (const name of ["Een", "Twee", "Drie"]) await queued.take({ ...ORDER, name }, "Jan", new Date(Date.UTC(2026, 11, 1, 10, keyCount)));
    const server = fakeServer((entry) =>
      entry.request.name === "Twee"
        ? { kind: "retry", reason: "De server kon de bestelling nu niet aannemen (fout 503)." }
        : { kind: "sent", reference: "KP" },
    );
    const outbox = new Outbox(store, server.send);
    await outbox.flush();
    expect(server.keys).toEqual(["k1", "k2"]);
    expect((await outbox.list()).map((entry) => [entry.key, entry.failure])).toEqual([
      ["k2", "De server kon de bestelling nu niet aannemen (fout 503)."],
      ["k3", null],
    ]);
  });

  it("keeps a refused order listed with its reason, skips it on later sends, and removes it when asked", async () => {
    const store = await freshStore();
    const refusing = new Outbox(
      store,
      async () => ({ kind: "refused", reason: "Onbekende tabler." }),
      undefined,
      () => "gone-tabler",
    );
    await refusing.take(ORDER, "Jan");
    await refusing.flush();
    expect(await refusing.list()).toMatchObject([{ key: "gone-tabler", failure: "Onbekende tabler.", refused: true }]);

    const server = fakeServer(() => ({ kind: "sent", reference: "KP" }));
    const later = new Outbox(store, server.send);
    await later.flush();
    expect(server.keys).toEqual([]);
    await later.remove("gone-tabler");
    expect(await later.list()).toEqual([]);
  });

  it("takes an order the server refuses at submit out of the outbox again", async () => {
    const outbox = new Outbox(await freshStore(), async () => ({ kind: "refused", reason: "Het aantal kerstpakketten is maximaal 500." }));
    expect(await outbox.submit({ ...ORDER, quantity: 501 }, "Jan")).toEqual({
      kind: "refused",
      reason: "Het aantal kerstpakketten is maximaal 500.",
    });
    expect(await outbox.list()).toEqual([]);
  });

  it("never sends twice at once: flushes while one runs join it, and a submit waits for it", async () => {
    const store = await freshStore();
    let keyCount = 0;
    const outbox0 = new Outbox(
      store,
      async () => ({ kind: "retry", reason: NO_CONNECTION }),
      undefined,
      () => `w${++keyCount}`,
    );
    await outbox0.take(ORDER, "Jan");
    let running = 0;
    let most = 0;
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const server = fakeServer(() => ({ kind: "sent", reference: "KP" }));
    const outbox = new Outbox(
      store,
      async (entry) => {
        running += 1;
        most = Math.max(most, running);
        await gate;
        running -= 1;
        return server.send(entry);
      },
      undefined,
      () => `w${++keyCount}`,
    );
    const first = outbox.flush();
    const second = outbox.flush();
    expect(second).toBe(first);
    const submitted = outbox.submit({ ...ORDER, name: "Nieuw" }, "Jan");
    release();
    await Promise.all([first, submitted]);
    expect(most).toBe(1);
    // Both orders went out, one send at a time (had the flush also picked up the new one, its key made that harmless).
    expect([...new Set(server.keys)].sort()).toEqual(["w1", "w2"]);
    expect(await outbox.list()).toEqual([]);
  });
});

describe("Outbox flushes asked for while one runs", () => {
  it("go through the outbox once more after it, so an `online` during a failing send is not lost", async () => {
    let online = false;
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const server = fakeServer(() => ({ kind: "sent", reference: "KP" }));
    const outbox = new Outbox(
      memoryStore(),
      async (entry) => {
        // The send began while the connection was still down: it fails, however long it takes.
        const connected = online;
        await gate;
        return connected ? server.send(entry) : { kind: "retry", reason: NO_CONNECTION };
      },
      undefined,
      () => "late",
    );
    await outbox.take(ORDER, "Jan");
    const first = outbox.flush();
    online = true;
    const second = outbox.flush();
    release();
    await Promise.all([first, second]);
    expect(server.keys).toEqual(["late"]);
    expect(await outbox.list()).toEqual([]);
  });
});

describe("Outbox in memory", () => {
  it("works the same where IndexedDB is not available", async () => {
    const server = fakeServer((_, call) => (call === 1 ? { kind: "retry", reason: NO_CONNECTION } : { kind: "sent", reference: "KP" }));
    const outbox = new Outbox(memoryStore(), server.send, undefined, () => "m1");
    await outbox.submit(ORDER, "Jan");
    expect((await outbox.list()).map((entry) => entry.failure)).toEqual([NO_CONNECTION]);
    await outbox.flush();
    expect(server.keys).toEqual(["m1", "m1"]);
    expect(await outbox.list()).toEqual([]);
  });
});
