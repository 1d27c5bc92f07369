import { defineMessages } from "../define";

/** Permissions: the list by prefix, add and delete. */
export const permissions = defineMessages({
  en: {},
  nl: {},
});
