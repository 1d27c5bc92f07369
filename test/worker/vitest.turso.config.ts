import { tursoProject } from './turso-project';

// The Worker suites on Turso that share one workerd and one database; each file counts only its own rows.
export default tursoProject('worker-turso', false);
