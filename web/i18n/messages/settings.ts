import { defineMessages } from "../define";

/** Settings: the list, the add/edit dialog, value editors, visibility. */
export const settings = defineMessages({
  en: {},
  nl: {},
});
