import { tursoProject } from './turso-project';

// The Worker suites on Turso that need a database of their own: a workerd and a copy of the database per file.
export default tursoProject('worker-turso-own-db', true);
