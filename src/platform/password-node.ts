import { argon2 } from 'node:crypto';
import type { Argon2idFn } from './password';

/** Node's native Argon2id (node:crypto, Node 24.7+): about 50 ms per hash with OWASP parameters. */
export const nodeArgon2id: Argon2idFn = (password, salt, params, tagLength) =>
  new Promise((resolve, reject) => {
    argon2(
      'argon2id',
      { message: password, nonce: salt, memory: params.memoryKiB, passes: params.passes, parallelism: params.parallelism, tagLength },
      (err, derived) => (err ? reject(err) : resolve(new Uint8Array(derived))),
    );
  });
