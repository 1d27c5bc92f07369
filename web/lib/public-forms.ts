import {
  CONTACT_LABELS,
  dutchPostcode,
  INVALID_EMAIL_MESSAGE,
  isValidEmail,
  isValidPhone,
  NAME_LINK_MESSAGE,
  nameHasLink,
  ORDER_LABELS,
  PHONE_MESSAGE,
  POSTCODE_MESSAGE,
  parseQuantity,
  requiredMessage,
} from "#src/core/public-form-rules";

// Client-side checks of the public forms, with the server's own rules and texts
// (src/core/public-form-rules.ts); the server checks them again.

export type FieldErrors<Field extends string> = Partial<Record<Field, string>>;

export type OrderField = keyof typeof ORDER_LABELS;
export type OrderFormValues = Record<OrderField, string>;

const REQUIRED_ORDER_FIELDS = ["name", "email", "phone", "address", "postalCode", "city"] as const;

export function validateOrder(values: OrderFormValues): FieldErrors<OrderField> {
  const errors: FieldErrors<OrderField> = {};
  for (const field of REQUIRED_ORDER_FIELDS) {
    if (values[field].trim() === "") errors[field] = requiredMessage(ORDER_LABELS[field]);
  }
  if (!errors.name && nameHasLink(values.name)) errors.name = NAME_LINK_MESSAGE;
  if (!errors.email && !isValidEmail(values.email.trim())) errors.email = INVALID_EMAIL_MESSAGE;
  // docs/architecture.md §6: the server's postcode and phone rules, with its texts, before the order is sent.
  if (!errors.phone && !isValidPhone(values.phone)) errors.phone = PHONE_MESSAGE;
  if (!errors.postalCode && dutchPostcode(values.postalCode) === null) errors.postalCode = POSTCODE_MESSAGE;
  const quantity = parseQuantity(values.quantity);
  if (quantity.error !== null) errors.quantity = quantity.error;
  return errors;
}

export type ContactField = keyof typeof CONTACT_LABELS;
export type ContactFormValues = Record<ContactField, string>;

/** docs/product.md §5 contact: all four fields required; the e-mail must be valid (docs/architecture.md §4). */
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
