import { describe, expect, it } from 'vitest';
import { nodeTooOld } from './node-version';

describe('nodeTooOld', () => {
  it('lets a Node with crypto.argon2 run the server', () => {
    expect(nodeTooOld('v24.21.0', true)).toBeNull();
  });

  it('names the Node it found and how to start with the right one', () => {
    expect(nodeTooOld('v20.20.2', false)).toBe(
      'Kerstactie needs Node 24.7 or newer (for crypto.argon2); this is Node 20.20.2. ' +
        "Start it with the project's own Node (npm run serve, or node_modules/.bin/node dist-server/node.js) or install Node 24.",
    );
  });
});
