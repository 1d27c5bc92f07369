/** The look of a text button in the dark top bar. */
export const headerControl =
  "h-9 px-2.5 text-header-foreground hover:bg-white/15 hover:text-header-foreground focus-visible:ring-white/60 sm:px-3";
