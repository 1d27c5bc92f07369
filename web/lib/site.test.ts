import { describe, expect, it } from "vitest";

import { DEFAULT_SITE, formatEuro, linkLabel, siteFromSettings, socialLabel } from "./site";

describe("siteFromSettings", () => {
  it("reads the club identity and the price from the public settings", () => {
    expect(
      siteFromSettings({
        club_name: "Ronde Tafel 99 Franeker",
        club_town: "Franeker",
        club_address: "Dijkstraat 3, 8801 AA Franeker",
        club_email: "info@example.org",
        club_facebook_url: "https://www.instagram.com/rt99",
        club_website_url: "https://example.org/",
        package_price: 80,
      }),
    ).toEqual({
      clubName: "Ronde Tafel 99 Franeker",
      town: "Franeker",
      addressLine: "Dijkstraat 3, 8801 AA Franeker",
      email: "info@example.org",
      facebookUrl: "https://www.instagram.com/rt99",
      ownSiteUrl: "https://example.org/",
      packagePrice: 80,
    });
  });

  it("shows the defaults only while the settings have not loaded", () => {
    expect(siteFromSettings({})).toEqual(DEFAULT_SITE);
  });

  it("leaves out a loaded club's empty or unusable address, e-mail and links instead of showing the first club's", () => {
    const site = siteFromSettings({
      club_name: "  ",
      club_town: "Sneek",
      club_address: "",
      club_email: " ",
      club_facebook_url: "",
      club_website_url: "javascript:alert(1)",
      package_price: "0",
    });
    expect(site).toEqual({
      clubName: DEFAULT_SITE.clubName,
      town: "Sneek",
      addressLine: "Sneek",
      email: null,
      facebookUrl: null,
      ownSiteUrl: null,
      packagePrice: 75,
    });
    expect(siteFromSettings({ club_name: "Ronde Tafel 99 Sneek", club_town: "" }).addressLine).toBeNull();
    expect(siteFromSettings({ package_price: "82.5" }).packagePrice).toBe(82.5);
  });
});

describe("labels", () => {
  it("formats euro amounts the Dutch way", () => {
    expect(formatEuro(75)).toBe("75");
    expect(formatEuro(82.5)).toBe("82,50");
    expect(formatEuro(1500)).toBe("1.500");
  });

  it("names links by their host and social networks by name", () => {
    expect(linkLabel("https://www.tafelronde.nl/")).toBe("tafelronde.nl");
    expect(socialLabel("https://www.facebook.com/rt144")).toBe("Facebook");
    expect(socialLabel("https://www.instagram.com/rt144")).toBe("Instagram");
    expect(socialLabel("https://mastodon.social/@rt")).toBe("Social media");
  });
});

describe("the defaults", () => {
  it("are the seed values, so a fresh install hydrates the prerendered pages instead of rendering them again", async () => {
    const { BUILT_IN_SETTINGS } = await import("../../src/features/settings/settings.defaults");
    const seeded = Object.fromEntries(
      BUILT_IN_SETTINGS.filter((setting) => setting.visibility === "public").map((setting) => [
        setting.key,
        setting.type === "integer" ? Number(setting.value) : setting.value,
      ]),
    );
    expect(siteFromSettings(seeded)).toEqual(DEFAULT_SITE);
  });
});
