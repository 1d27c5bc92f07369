import { decodeBase64IgnorePadding, encodeBase64NoPadding } from '@oslojs/encoding';
import { randomBytes, timingSafeEqual } from './crypto';

/**
 * Argon2id password hashes in PHC string form (docs/architecture.md §3), so parameters can be raised later:
 * `$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>` (base64 without padding).
 * The primitive is injected: Node uses its built-in native argon2, the Worker a pure-JS one.
 */
export interface Argon2Params {
  memoryKiB: number;
  passes: number;
  parallelism: number;
}

export type Argon2idFn = (password: Uint8Array, salt: Uint8Array, params: Argon2Params, tagLength: number) => Promise<Uint8Array>;

/** OWASP's recommended minimum for Argon2id: 19 MiB, 2 iterations, 1 lane. */
export const CURRENT_ARGON2_PARAMS: Argon2Params = { memoryKiB: 19456, passes: 2, parallelism: 1 };
const TAG_LENGTH = 32;
const SALT_LENGTH = 16;

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(phc: string, password: string): Promise<boolean>;
  /** True when the stored hash was made with weaker parameters than today's. */
  needsRehash(phc: string): boolean;
}

interface ParsedPhc {
  params: Argon2Params;
  salt: Uint8Array;
  hash: Uint8Array;
}

export function parsePhc(phc: string): ParsedPhc | null {
  const match = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/.exec(phc);
  if (!match) return null;
  try {
    return {
      params: { memoryKiB: Number(match[1]), passes: Number(match[2]), parallelism: Number(match[3]) },
      salt: decodeBase64IgnorePadding(match[4]!),
      hash: decodeBase64IgnorePadding(match[5]!),
    };
  } catch {
    return null;
  }
}

export function createPasswordHasher(argon2id: Argon2idFn, params: Argon2Params = CURRENT_ARGON2_PARAMS): PasswordHasher {
  const encoder = new TextEncoder();
  return {
    async hash(password) {
      const salt = randomBytes(SALT_LENGTH);
      const tag = await argon2id(encoder.encode(password), salt, params, TAG_LENGTH);
      return `$argon2id$v=19$m=${params.memoryKiB},t=${params.passes},p=${params.parallelism}$${encodeBase64NoPadding(salt)}$${encodeBase64NoPadding(tag)}`;
    },
    async verify(phc, password) {
      const parsed = parsePhc(phc);
      if (!parsed) return false;
      const tag = await argon2id(encoder.encode(password), parsed.salt, parsed.params, parsed.hash.length);
      return timingSafeEqual(encodeBase64NoPadding(tag), encodeBase64NoPadding(parsed.hash));
    },
    needsRehash(phc) {
      const parsed = parsePhc(phc);
      if (!parsed) return true;
      return parsed.params.memoryKiB < params.memoryKiB || parsed.params.passes < params.passes || parsed.params.parallelism < params.parallelism;
    },
  };
}
