import { describe, expect, it } from "vitest";

import { isValidEmail as serverIsValidEmail } from "../../src/features/account/account.schemas";
import { GATE_MESSAGES as SERVER_GATE_MESSAGES, gateInputProblem } from "../../src/features/tablers/tabler-gate";
import { QUANTITY_MESSAGE as SERVER_QUANTITY_MESSAGE } from "../../src/features/orders/orders.schemas";
import {
  GATE_MESSAGES,
  gateProblem,
  isValidEmail,
  type OrderFormValues,
  parseQuantity,
  QUANTITY_MESSAGE,
  validateContact,
  validateOrder,
} from "./public-forms";

const filledOrder: OrderFormValues = {
  name: "Anna de Vries",
  email: "anna@example.nl",
  phone: "0517 123456",
  address: "Voorstraat 12",
  postalCode: "8861 BK",
  city: "Harlingen",
  quantity: "2",
  notes: "",
};

describe("the order password step", () => {
  it("uses the server's texts", () => {
    expect(GATE_MESSAGES).toEqual(SERVER_GATE_MESSAGES);
  });

  it.each(["", "   ", "ab", "a b", "123", "12 34", "jan", "Jan de Vries", "éé1", "  xy  z"])(
    "judges %j as the server does",
    (input) => {
      expect(gateProblem(input)).toBe(gateInputProblem(input));
    },
  );

  it("checks emptiness, then length, then letters", () => {
    expect(gateProblem("")).toBe("Voer het wachtwoord in.");
    expect(gateProblem("12")).toBe("Wachtwoord moet minimaal 3 karakters bevatten.");
    expect(gateProblem("1234")).toBe("Wachtwoord moet letters bevatten.");
    expect(gateProblem("Piet")).toBeNull();
  });
});

describe("the order form", () => {
  it("accepts a filled-in order", () => {
    expect(validateOrder(filledOrder)).toEqual({});
  });

  it("names every missing required field with its label", () => {
    const empty = { name: "", email: "", phone: " ", address: "", postalCode: "", city: "", quantity: "1", notes: "" };
    expect(validateOrder(empty)).toEqual({
      name: "Naam is verplicht.",
      email: "Email is verplicht.",
      phone: "Telefoon is verplicht.",
      address: "Adres is verplicht.",
      postalCode: "Postcode is verplicht.",
      city: "Plaats is verplicht.",
    });
  });

  it("refuses a malformed e-mail address and a quantity that is not a positive whole number", () => {
    for (const quantity of ["", "0", "-1", "1.5", "2e3", "abc"]) {
      expect(validateOrder({ ...filledOrder, email: "anna@", quantity })).toEqual({
        email: "Voer een geldig email adres in.",
        quantity: "Aantal kerstpakketten is verplicht en moet groter dan 0 zijn.",
      });
    }
    expect(QUANTITY_MESSAGE).toBe(SERVER_QUANTITY_MESSAGE);
    expect(parseQuantity(" 12 ")).toBe(12);
  });

  it("checks e-mail addresses the way the server does", () => {
    for (const email of ["a@b.nl", "a@b.c", "a b@c.nl", "x@y", "naam.achternaam@bedrijf.example.com", "@b.nl"]) {
      expect(isValidEmail(email)).toBe(serverIsValidEmail(email));
    }
  });
});

describe("the contact form", () => {
  it("requires all four fields and a valid e-mail address", () => {
    expect(validateContact({ name: "", email: "", subject: "", message: "" })).toEqual({
      name: "Naam is verplicht.",
      email: "Email is verplicht.",
      subject: "Onderwerp is verplicht.",
      message: "Bericht is verplicht.",
    });
    expect(validateContact({ name: "Anna", email: "anna", subject: "Vraag", message: "Hoi" })).toEqual({
      email: "Voer een geldig email adres in.",
    });
  });
});
