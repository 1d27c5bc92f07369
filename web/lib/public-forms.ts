import { nameHasLink, NAME_LINK_MESSAGE } from "../../src/features/orders/order-name";

// Client-side checks of the public forms, with the exact Dutch texts of spec §5. The server checks
// the same rules again (src/features/tablers/tabler-gate.ts, orders.schemas.ts, contact.schemas.ts);
// public-forms.test.ts keeps both sides in step.

export const GATE_MESSAGES = {
  empty: "Voer het wachtwoord in.",
  tooShort: "Wachtwoord moet minimaal 3 karakters bevatten.",
  noLetters: "Wachtwoord moet letters bevatten.",
  noMatch: "Onjuist wachtwoord. Probeer opnieuw.",
} as const;

export { NAME_LINK_MESSAGE };

export const QUANTITY_MESSAGE = "Aantal kerstpakketten is verplicht en moet groter dan 0 zijn.";
export const INVALID_EMAIL_MESSAGE = "Voer een geldig email adres in.";

export const requiredMessage = (label: string) => `${label} is verplicht.`;

/** spec §5 order password step: the first rule the input breaks, in the spec's order, or null. */
export function gateProblem(password: string): string | null {
  if (password.trim() === "") return GATE_MESSAGES.empty;
  if (password.replace(/\s+/g, "").length < 3) return GATE_MESSAGES.tooShort;
  if (!/\p{L}/u.test(password)) return GATE_MESSAGES.noLetters;
  return null;
}

/** spec §5 'Email must look like {email}' — the server's own pattern. */
export function isValidEmail(email: string): boolean {
  return email.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/.test(email);
}

/** spec §5 order form: a whole number above 0, typed as text. */
export function parseQuantity(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return Number.isSafeInteger(value) && value > 0 ? value : null;
}

export type FieldErrors<Field extends string> = Partial<Record<Field, string>>;

export type OrderFormValues = {
  name: string;
  email: string;
  phone: string;
  address: string;
  postalCode: string;
  city: string;
  quantity: string;
  notes: string;
};
export type OrderField = keyof OrderFormValues;

/** The labels of the order form (spec §5), in the order the fields appear. */
export const ORDER_LABELS = {
  name: "Naam",
  email: "Email",
  phone: "Telefoon",
  address: "Adres",
  postalCode: "Postcode",
  city: "Plaats",
  quantity: "Aantal kerstpakketten",
  notes: "Opmerkingen",
} as const satisfies Record<OrderField, string>;

const REQUIRED_ORDER_FIELDS = ["name", "email", "phone", "address", "postalCode", "city"] as const;

export function validateOrder(values: OrderFormValues): FieldErrors<OrderField> {
  const errors: FieldErrors<OrderField> = {};
  for (const field of REQUIRED_ORDER_FIELDS) {
    if (values[field].trim() === "") errors[field] = requiredMessage(ORDER_LABELS[field]);
  }
  if (!errors.name && nameHasLink(values.name)) errors.name = NAME_LINK_MESSAGE;
  if (!errors.email && !isValidEmail(values.email.trim())) errors.email = INVALID_EMAIL_MESSAGE;
  if (parseQuantity(values.quantity) === null) errors.quantity = QUANTITY_MESSAGE;
  return errors;
}

export type ContactFormValues = { name: string; email: string; subject: string; message: string };
export type ContactField = keyof ContactFormValues;

export const CONTACT_LABELS = {
  name: "Naam",
  email: "Email",
  subject: "Onderwerp",
  message: "Bericht",
} as const satisfies Record<ContactField, string>;

/** spec §5 contact: all four fields required; the e-mail must be valid (DESIGN §4). */
export function validateContact(values: ContactFormValues): FieldErrors<ContactField> {
  const errors: FieldErrors<ContactField> = {};
  for (const field of ["name", "email", "subject", "message"] as const) {
    if (values[field].trim() === "") errors[field] = requiredMessage(CONTACT_LABELS[field]);
  }
  if (!errors.email && !isValidEmail(values.email.trim())) errors.email = INVALID_EMAIL_MESSAGE;
  return errors;
}

/** The first field with an error, in the given order (to move focus there). */
export function firstErrorField<Field extends string>(errors: FieldErrors<Field>, order: readonly Field[]): Field | null {
  return order.find((field) => errors[field] !== undefined) ?? null;
}
