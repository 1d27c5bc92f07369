import { defineMessages } from "../define";

/** The audit log. */
export const audit = defineMessages({
  en: {},
  nl: {},
});
