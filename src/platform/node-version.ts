/** The Node the server needs: 24.7 brought `crypto.argon2`, which hashes passwords (package.json `engines`). */
export const REQUIRED_NODE = '24.7';

/** The one line to print when this Node cannot run the server, or null when it can. */
export function nodeTooOld(version: string, hasArgon2: boolean): string | null {
  if (hasArgon2) return null;
  return (
    `Kerstactie needs Node ${REQUIRED_NODE} or newer (for crypto.argon2); this is Node ${version.replace(/^v/, '')}. ` +
    "Start it with the project's own Node (npm run serve, or node_modules/.bin/node dist-server/node.js) or install Node 24."
  );
}
