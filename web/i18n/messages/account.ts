import { defineMessages } from "../define";

/** The account page: its cards (details, e-mail, password, two-factor, signed-in devices). */
export const account = defineMessages({
  en: {},
  nl: {},
});
