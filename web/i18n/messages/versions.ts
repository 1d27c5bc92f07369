import { defineMessages } from "../define";

/** Android app versions: list, upload, download, delete. */
export const versions = defineMessages({
  en: {},
  nl: {},
});
