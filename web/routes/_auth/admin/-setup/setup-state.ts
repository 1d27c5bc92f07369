// docs/decisions/073: a new club's admins get the set-up until it is finished; "Later" puts it off for this tab
// (sessionStorage), so it opens again at the next visit rather than at every click in the admin area.

export const SETUP_PATH = "/admin/setup";
const POSTPONED = "kerstactie.setup-postponed";

export function setupPostponed(): boolean {
  try {
    return sessionStorage.getItem(POSTPONED) === "1";
  } catch {
    return false;
  }
}

export function postponeSetup(): void {
  try {
    sessionStorage.setItem(POSTPONED, "1");
  } catch {
    // No storage (a private mode that refuses it): the set-up simply opens again.
  }
}
