import { defineMessages } from "../define";

/** The account page's language choice (docs/decisions/011). Each language's own name is in that language. */
export const language = defineMessages({
  en: {
    title: "Language",
    description: "The language of the account and admin screens. The public site is always Dutch.",
    saved: "Language saved",
    failed: "Could not save the language",
  },
  nl: {
    title: "Taal",
    description: "De taal van de account- en beheerschermen. De openbare site is altijd Nederlands.",
    saved: "Taal opgeslagen",
    failed: "De taal kon niet worden opgeslagen",
  },
});
