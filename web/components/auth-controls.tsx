// SLOT: the top bar's auth controls (spec §2 "Layout": login/register links, Admin link, Logout,
// account avatar). Implemented in a later issue; until then it renders nothing, which is also
// what the spec asks for while the sign-in check runs.
export function AuthControls() {
  return null;
}
