import { defineMessages } from "../define";

/** The admin area's frame: toolbar, navigation, maintenance banner, the admin start page. */
export const shell = defineMessages({
  en: {
    /** The signed-in controls in the top bar. */
    header: {
      nav: "Account",
      admin: "Admin",
      logout: "Logout",
      accountSettings: "Account settings",
    },
    home: {
      title: "Admin",
      adminDescription: "Manage the accounts, the site and the campaign.",
      managementDescription: "Run the campaign: tablers, orders, invoices and payments.",
      nav: "Admin sections",
    },
    toolbar: {
      nav: "Admin",
      home: "Admin Home",
      homeHint: "All admin sections",
      scrollBack: "Show earlier sections",
      scrollOn: "Show more sections",
    },
    /** The tiles of /admin and the toolbar's buttons, by the section's key (admin-sections.ts). */
    sections: {
      users: { title: "Users", description: "Accounts, their groups, status and passwords" },
      groups: { title: "Groups", description: "Groups and the permissions they hold" },
      permissions: { title: "Permissions", description: "The permission keys groups can hold" },
      settings: { title: "Settings", description: "Sign-in, site and invoice settings" },
      versions: { title: "Versions", description: "Mobile app (APK) versions and uploads" },
      management: { title: "Management", description: "Tablers, orders, invoices and payments of the campaign" },
      audit: { title: "Audit Log", description: "Who changed what, when and from where" },
      clubs: { title: "Clubs", description: "The clubs on this deployment: hosts, sign-ups, suspend" },
    },
    maintenance: {
      title: "Maintenance mode is on",
      text: "Everyone without admin access sees the maintenance page instead of the site.",
      link: "Open the maintenance_mode setting",
    },
    retrying: "Retrying",
    dismiss: "Dismiss",
  },
  nl: {
    header: {
      nav: "Account",
      admin: "Beheer",
      logout: "Uitloggen",
      accountSettings: "Accountinstellingen",
    },
    home: {
      title: "Beheer",
      adminDescription: "Beheer de accounts, de site en de actie.",
      managementDescription: "Voer de actie uit: tablers, bestellingen, facturen en betalingen.",
      nav: "Beheeronderdelen",
    },
    toolbar: {
      nav: "Beheer",
      home: "Overzicht",
      homeHint: "Alle beheeronderdelen",
      scrollBack: "Eerdere onderdelen tonen",
      scrollOn: "Meer onderdelen tonen",
    },
    sections: {
      users: { title: "Gebruikers", description: "Accounts, hun groepen, status en wachtwoorden" },
      groups: { title: "Groepen", description: "Groepen en de rechten die ze hebben" },
      permissions: { title: "Rechten", description: "De rechten die groepen kunnen hebben" },
      settings: { title: "Instellingen", description: "Instellingen voor inloggen, site en facturen" },
      versions: { title: "Versies", description: "Versies en uploads van de mobiele app (APK)" },
      management: { title: "Management", description: "Tablers, bestellingen, facturen en betalingen van de actie" },
      audit: { title: "Auditlog", description: "Wie wat wanneer en van waar heeft gewijzigd" },
      clubs: { title: "Clubs", description: "De clubs op deze installatie: hosts, aanmeldingen, opschorten" },
    },
    // The Management page's own Dutch texts (it is in Dutch for everyone).
    maintenance: {
      title: "Onderhoudsmodus staat aan",
      text: "Iedereen zonder beheerderstoegang ziet de onderhoudspagina in plaats van de site.",
      link: "Naar de instelling maintenance_mode",
    },
    retrying: "Bezig met opnieuw proberen",
    dismiss: "Sluiten",
  },
});
