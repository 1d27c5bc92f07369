import { defineMessages } from "../define";

/** The admin area's frame: toolbar, navigation, maintenance banner, the admin start page. */
export const shell = defineMessages({
  en: {},
  nl: {},
});
