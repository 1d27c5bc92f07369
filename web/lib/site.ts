// Club identity shown in the layout. Placeholders until these come from the site settings
// (DESIGN §3: club name, address and e-mail are settings).
export const site = {
  clubName: "Ronde Tafel 144 Harlingen",
  town: "Harlingen",
  addressLine: "Harlingen en omstreken",
  facebookUrl: "https://www.facebook.com/rondetafel144harlingen",
  ownSiteUrl: "https://www.rondetafel.nl",
} as const;
