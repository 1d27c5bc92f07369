import type { Argon2Params } from '../../src/platform/password';

/**
 * The cheapest Argon2id the tests' servers hash with (docs/decisions/063): 64 KiB and one pass cost well under a
 * millisecond where the production parameters cost about 50 ms natively and 300 ms in pure JS, on every user
 * created and every sign-in. The stored hashes still are real argon2id PHC strings, checked the same way;
 * the tests of the hashing itself and of the production parameters use CURRENT_ARGON2_PARAMS.
 */
export const TEST_ARGON2_PARAMS: Argon2Params = { memoryKiB: 64, passes: 1, parallelism: 1 };
