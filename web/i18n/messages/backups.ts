import { defineMessages } from "../define";

/** The backups card on the settings page (docs/decisions/051). */
export const backups = defineMessages({
  en: {
    title: "Backups",
    description: "A copy of all data, made every day by itself; the newest are kept.",
    keepNote: "Keep a downloaded backup as safe as the server: it holds the secret key.",
    create: "Make backup",
    creating: "Making backup",
    created: (name: string) => `Backup ${name} made`,
    createFailed: "Making the backup failed",
    loading: "Loading backups",
    loadFailed: "Failed to load backups",
    empty: "No backups yet.",
    listLabel: "Backups",
    size: (kilobytes: string) => `${kilobytes} kB`,
    download: "Download",
    downloadLabel: (name: string) => `Download ${name}`,
    downloadFailed: "Download failed",
  },
  nl: {
    title: "Back-ups",
    description: "Een kopie van alle gegevens, elke dag vanzelf gemaakt; de nieuwste blijven bewaard.",
    keepNote: "Bewaar een gedownloade back-up even zorgvuldig als de server: de geheime sleutel zit erin.",
    create: "Maak back-up",
    creating: "Back-up wordt gemaakt",
    created: (name: string) => `Back-up ${name} gemaakt`,
    createFailed: "De back-up maken is mislukt",
    loading: "Back-ups laden",
    loadFailed: "Back-ups laden is mislukt",
    empty: "Nog geen back-ups.",
    listLabel: "Back-ups",
    size: (kilobytes: string) => `${kilobytes} kB`,
    download: "Downloaden",
    downloadLabel: (name: string) => `${name} downloaden`,
    downloadFailed: "Downloaden is mislukt",
  },
});
