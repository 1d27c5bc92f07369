import { createWorker } from '../../src/worker';
import { TEST_ARGON2_PARAMS } from '../support/argon2-params';

/**
 * The Worker the workerd suites run (SELF and the direct calls): the production entry's handlers with the tests'
 * cheap Argon2 parameters (docs/decisions/063). worker.test.ts checks the production parameters inside workerd.
 */
export default createWorker(TEST_ARGON2_PARAMS);
