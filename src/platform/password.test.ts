import { describe, expect, it } from 'vitest';
import { createPasswordHasher, CURRENT_ARGON2_PARAMS, parsePhc, type Argon2Params } from './password';
import { jsArgon2id } from './password-js';
import { nodeArgon2id } from './password-node';

const PHC_CURRENT = /^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/;
const LOW: Argon2Params = { memoryKiB: 1024, passes: 1, parallelism: 1 };

describe('the Argon2id password hasher (Node)', () => {
  const hasher = createPasswordHasher(nodeArgon2id);

  it('uses at least the OWASP parameters: 19 MiB, 2 passes, 1 lane', () => {
    expect(CURRENT_ARGON2_PARAMS).toEqual({ memoryKiB: 19456, passes: 2, parallelism: 1 });
  });

  it('hashes to a PHC string with the current parameters, a 16-byte salt and a 32-byte tag', async () => {
    const phc = await hasher.hash('correct horse battery staple');
    expect(phc).toMatch(PHC_CURRENT);
    const parsed = parsePhc(phc)!;
    expect(parsed.salt).toHaveLength(16);
    expect(parsed.hash).toHaveLength(32);
  });

  it('salts every hash, so the same password never hashes the same twice', async () => {
    expect(await hasher.hash('zelfde')).not.toBe(await hasher.hash('zelfde'));
  });

  it('verifies the right password and refuses a wrong one', async () => {
    const phc = await hasher.hash('Kerstpakket2026!');
    expect(await hasher.verify(phc, 'Kerstpakket2026!')).toBe(true);
    expect(await hasher.verify(phc, 'kerstpakket2026!')).toBe(false);
    expect(await hasher.verify(phc, '')).toBe(false);
  });

  it('verifies non-ASCII passwords', async () => {
    const phc = await hasher.hash('wachtwoord-€-ë-🎄');
    expect(await hasher.verify(phc, 'wachtwoord-€-ë-🎄')).toBe(true);
    expect(await hasher.verify(phc, 'wachtwoord-E-e-🎄')).toBe(false);
  });

  it('refuses anything that is not an argon2id PHC string instead of throwing', async () => {
    for (const bad of [
      '',
      'plain-text',
      '$argon2i$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA',
      '$2b$10$abcdefghijklmnopqrstuu',
      '$argon2id$v=19$m=19456,t=2,p=1$!!$??',
    ]) {
      expect(await hasher.verify(bad, 'anything')).toBe(false);
    }
  });

  it('asks for a rehash of a hash made with weaker parameters, and not of a current one', async () => {
    const current = await hasher.hash('x');
    expect(hasher.needsRehash(current)).toBe(false);
    const weak = await createPasswordHasher(nodeArgon2id, { memoryKiB: 4096, passes: 2, parallelism: 1 }).hash('x');
    expect(weak).toMatch(/^\$argon2id\$v=19\$m=4096,t=2,p=1\$/);
    expect(hasher.needsRehash(weak)).toBe(true);
    expect(hasher.needsRehash(current.replace('t=2', 't=1'))).toBe(true);
    expect(hasher.needsRehash('not a hash')).toBe(true);
    // An old, weaker hash still verifies, so the user can sign in and be rehashed.
    expect(await hasher.verify(weak, 'x')).toBe(true);
  });

  it('does not ask for a rehash of a hash made with stronger parameters', async () => {
    const strong = await createPasswordHasher(nodeArgon2id, { memoryKiB: 19456 * 2, passes: 3, parallelism: 1 }).hash('x');
    expect(hasher.needsRehash(strong)).toBe(false);
    expect(await hasher.verify(strong, 'x')).toBe(true);
  });
});

describe('the pure-JS (Worker) and native (Node) Argon2id implementations', () => {
  const js = createPasswordHasher(jsArgon2id, LOW);
  const node = createPasswordHasher(nodeArgon2id, LOW);

  it('produce the same tag for the same password, salt and parameters', async () => {
    const password = new TextEncoder().encode('gedeeld geheim');
    const salt = new Uint8Array(16).map((_, i) => i * 7);
    expect(await jsArgon2id(password, salt, LOW, 32)).toEqual(await nodeArgon2id(password, salt, LOW, 32));
  });

  it("verify each other's hashes", async () => {
    const fromJs = await js.hash('van de worker');
    const fromNode = await node.hash('van node');
    expect(await node.verify(fromJs, 'van de worker')).toBe(true);
    expect(await js.verify(fromNode, 'van node')).toBe(true);
    expect(await node.verify(fromJs, 'van node')).toBe(false);
    expect(await js.verify(fromNode, 'van de worker')).toBe(false);
  });
});
