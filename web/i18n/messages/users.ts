import { defineMessages } from "../define";

/** User management: the users table and cards, status, groups, password and delete dialogs. */
export const users = defineMessages({
  en: {},
  nl: {},
});
