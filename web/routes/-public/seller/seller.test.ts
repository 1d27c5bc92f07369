import { describe, expect, it } from "vitest";
import { parseSeller, sellerOrderSender, sellerTokenFromPath, sellerUrl } from "./seller";

const TOKEN = "12.abcdefghijkl.abcdefghijklmnopqrstuv";
const ORDER = {
  tabler_id: 7,
  gate_token: "gate",
  name: "Klaas",
  email: "klaas@example.nl",
  phone: "0517 123456",
  address: "Voorstraat 1",
  postalCode: "8861 BJ",
  city: "Harlingen",
  quantity: 2,
  notes: "",
};

describe("the seller page's rules", () => {
  it("reads the token from the address", () => {
    expect(sellerTokenFromPath(`/bestellen/${TOKEN}`)).toBe(TOKEN);
    expect(sellerTokenFromPath(`/bestellen/${TOKEN}/`)).toBe(TOKEN);
    expect(sellerTokenFromPath("/bestellen")).toBeNull();
    expect(sellerTokenFromPath("/bestellen/")).toBeNull();
    expect(sellerTokenFromPath("/bestellen/%E0%A4%A")).toBeNull();
    expect(sellerUrl("a/b")).toBe("/api/sellers/a%2Fb");
  });

  it("accepts only the contract's answer", () => {
    expect(parseSeller({ tabler_id: 3, tabler_name: "Piet" })).toEqual({ tabler_id: 3, tabler_name: "Piet" });
    expect(parseSeller({ tabler_id: "3", tabler_name: "Piet" })).toBeNull();
    expect(parseSeller({ tabler_id: 3, tabler_name: "" })).toBeNull();
    expect(parseSeller(null)).toBeNull();
  });

  it("sends the seller's token without the gate, and the same order again under the same key", async () => {
    const sent: { body: Record<string, unknown>; key: string | null }[] = [];
    const answers = [
      new Response(JSON.stringify({ success: false, error: "Dienst even weg" }), { status: 503 }),
      new Response(JSON.stringify({ success: true, order_reference: "KP-2026-0001" }), { status: 200 }),
      new Response(JSON.stringify({ success: false, error: "Deze bestellink werkt niet meer.", code: "SELLER_LINK_INVALID" }), {
        status: 400,
      }),
    ];
    const send = sellerOrderSender(TOKEN, async (_url, init) => {
      sent.push({ body: JSON.parse(String(init?.body)), key: new Headers(init?.headers).get("idempotency-key") });
      return answers.shift()!;
    });
    expect(await send(ORDER)).toEqual({
      kind: "refused",
      reason: "De server kon de bestelling nu niet aannemen (fout 503). Probeer het opnieuw.",
    });
    expect(await send(ORDER)).toEqual({ kind: "sent", reference: "KP-2026-0001" });
    expect(await send({ ...ORDER, quantity: 3 })).toEqual({ kind: "refused", reason: "Deze bestellink werkt niet meer." });
    expect(sent[0]!.body).toEqual({ ...ORDER, gate_token: undefined, seller_token: TOKEN });
    expect("gate_token" in sent[0]!.body).toBe(false);
    expect(sent[1]!.key).toBe(sent[0]!.key);
    expect(sent[2]!.key).not.toBe(sent[0]!.key);
  });

  it("answers a lost connection as a refusal to try again", async () => {
    const send = sellerOrderSender(TOKEN, async () => {
      throw new TypeError("Failed to fetch");
    });
    expect(await send(ORDER)).toEqual({
      kind: "refused",
      reason: "Geen verbinding met de server. Controleer je internetverbinding en probeer het opnieuw.",
    });
  });
});
