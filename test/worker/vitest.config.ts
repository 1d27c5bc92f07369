import { join } from 'node:path';
import { d1Project, OWN_DATABASE_FILES } from './d1-project';

// The Worker suites on D1 that share one workerd and one database; each file counts only its own rows.
export default d1Project('worker', { include: [join(import.meta.dirname, '**/*.test.ts')], exclude: OWN_DATABASE_FILES, isolate: false });
