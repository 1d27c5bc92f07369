import { argon2idAsync } from '@noble/hashes/argon2.js';
import type { Argon2idFn } from './password';

/** Pure-JS Argon2id for the Worker, where no native or dynamically compiled code may run. */
export const jsArgon2id: Argon2idFn = (password, salt, params, tagLength) =>
  argon2idAsync(password, salt, { m: params.memoryKiB, t: params.passes, p: params.parallelism, dkLen: tagLength });
