import { d1Project, OWN_DATABASE_FILES } from './d1-project';

// The Worker suites on D1 that need a database of their own: a workerd and a D1 per file, as vitest isolates files.
export default d1Project('worker-own-db', { include: OWN_DATABASE_FILES, exclude: [], isolate: true });
