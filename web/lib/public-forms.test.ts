import { describe, expect, it } from "vitest";

import { type OrderFormValues, validateContact, validateOrder } from "./public-forms";

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

  it("refuses a malformed e-mail address and a quantity that is not a positive whole number, as typed", () => {
    for (const [quantity, message] of [
      ["", "Aantal kerstpakketten is verplicht en moet groter dan 0 zijn."],
      ["0", "Aantal kerstpakketten is verplicht en moet groter dan 0 zijn."],
      ["-3", "Aantal kerstpakketten is verplicht en moet groter dan 0 zijn."],
      ["2.5", "Aantal kerstpakketten moet een heel getal zijn, zoals 1, 2 of 3."],
      ["2,5", "Aantal kerstpakketten moet een heel getal zijn, zoals 1, 2 of 3."],
      ["2e3", "Aantal kerstpakketten moet een heel getal zijn, zoals 1, 2 of 3."],
      ["abc", "Aantal kerstpakketten moet een heel getal zijn, zoals 1, 2 of 3."],
    ] as const) {
      expect(validateOrder({ ...filledOrder, email: "anna@", quantity }), quantity).toEqual({
        email: "Voer een geldig email adres in.",
        quantity: message,
      });
    }
    expect(validateOrder({ ...filledOrder, quantity: " 12 " })).toEqual({});
  });

  it("checks the postcode and the phone number with the server's texts", () => {
    expect(validateOrder({ ...filledOrder, postalCode: "8861bk", phone: "+31 (0)517-123456" })).toEqual({});
    expect(validateOrder({ ...filledOrder, postalCode: "ABCDE", phone: "bel me maar" })).toEqual({
      phone: "Vul een geldig telefoonnummer in.",
      postalCode: "Vul een geldige postcode in (1234 AB).",
    });
    expect(validateOrder({ ...filledOrder, postalCode: "123", phone: "123" })).toEqual({
      phone: "Vul een geldig telefoonnummer in.",
      postalCode: "Vul een geldige postcode in (1234 AB).",
    });
  });

  it("refuses a name with a link or an e-mail address", () => {
    expect(validateOrder({ ...filledOrder, name: "Mail info@club.nl" })).toEqual({ name: "Naam mag geen link of e-mailadres bevatten." });
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
