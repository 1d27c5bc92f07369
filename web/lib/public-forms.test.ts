import { describe, expect, it } from "vitest";

import { type OrderFormValues, parseQuantity, validateContact, validateOrder } from "./public-forms";

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

  it("refuses a malformed e-mail address and a quantity that is not a positive whole number", () => {
    for (const quantity of ["", "0", "-1", "1.5", "2e3", "abc"]) {
      expect(validateOrder({ ...filledOrder, email: "anna@", quantity })).toEqual({
        email: "Voer een geldig email adres in.",
        quantity: "Aantal kerstpakketten is verplicht en moet groter dan 0 zijn.",
      });
    }
    expect(parseQuantity(" 12 ")).toBe(12);
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
