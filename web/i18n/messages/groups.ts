import { defineMessages } from "../define";

/** Groups: the table, add and delete, edit permissions. */
export const groups = defineMessages({
  en: {},
  nl: {},
});
