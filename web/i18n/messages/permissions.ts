import { defineMessages } from "../define";

/** Permissions: the list by prefix, add and delete. */
export const permissions = defineMessages({
  en: {
    title: "Permission Management",
    count: (count: number) => `${count} ${count === 1 ? "permission" : "permissions"}`,
    loading: "Loading permissions",
    fetchFailed: "Failed to fetch permissions",
    empty: "There are no permissions yet.",
    builtInLabel: (key: string) => `${key} is built in and cannot be deleted`,
    builtInTooltip: "Built-in permission, cannot be deleted",
    deletePermission: {
      label: (key: string) => `Delete permission ${key}`,
      tooltip: "Delete permission",
      title: "Delete permission?",
      message: (key: string) => `${key} is deleted and taken away from every group that holds it.`,
      deleted: "Permission deleted.",
      failed: "Failed to delete permission",
    },
    addPermission: {
      title: "Add Permission",
      description: "Give groups this permission on the Groups page.",
      key: "Key",
      keyHint: "prefix.action, in lowercase; the prefix groups it on this page.",
      adding: "Adding",
      added: "Permission added successfully.",
      failed: "Failed to add permission",
    },
  },
  nl: {
    title: "Rechtenbeheer",
    count: (count: number) => `${count} ${count === 1 ? "recht" : "rechten"}`,
    loading: "Rechten laden",
    fetchFailed: "Ophalen van rechten mislukt",
    empty: "Er zijn nog geen rechten.",
    builtInLabel: (key: string) => `${key} is ingebouwd en kan niet worden verwijderd`,
    builtInTooltip: "Ingebouwd recht, kan niet worden verwijderd",
    deletePermission: {
      label: (key: string) => `Recht ${key} verwijderen`,
      tooltip: "Recht verwijderen",
      title: "Recht verwijderen?",
      message: (key: string) => `${key} wordt verwijderd en afgenomen van elke groep die het heeft.`,
      deleted: "Recht verwijderd.",
      failed: "Verwijderen van recht mislukt",
    },
    addPermission: {
      title: "Recht toevoegen",
      description: "Geef groepen dit recht op de pagina Groepen.",
      key: "Sleutel",
      keyHint: "prefix.actie, in kleine letters; op deze pagina wordt het gegroepeerd per prefix.",
      adding: "Bezig met toevoegen",
      added: "Recht toegevoegd.",
      failed: "Toevoegen van recht mislukt",
    },
  },
});
