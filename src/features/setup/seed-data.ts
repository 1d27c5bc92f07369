import { PERMISSIONS, PLATFORM_ACCESS } from '../auth/permission-keys';

/**
 * docs/architecture.md §3 seed data: the built-in permissions and groups. A module of plain values (seed.ts inserts them, every
 * insert "if absent"), so the back-office can tell a built-in description from one an admin typed (docs/decisions/041).
 */
export const SEED_PERMISSIONS = [
  { key: PERMISSIONS.adminAccess, description: 'Access to the admin area; passes every permission check and bypasses maintenance mode.' },
  { key: PERMISSIONS.premiumAiUsage, description: 'Access to the premium-only area (/protected).' },
  { key: PERMISSIONS.usersAssign, description: "Edit a user's groups." },
  { key: PERMISSIONS.usersDelete, description: 'Delete users.' },
  { key: PERMISSIONS.settingsDelete, description: 'Delete deletable settings.' },
  {
    key: PERMISSIONS.managementAccess,
    description: 'The Management dashboard: tablers, orders, invoices, payments and the CSV export, without the rest of the admin area.',
  },
] as const;

/** docs/decisions/071: seeded in the first club only, which runs the deployment. */
export const PLATFORM_PERMISSION = {
  key: PLATFORM_ACCESS,
  description: 'The platform: the clubs of this deployment (list, create, suspend, hosts). Held in the first club only.',
} as const;

export const ADMIN_GROUP = 'Administrators';
export const USERS_GROUP = 'Users';
/** docs/decisions/026: the treasurer's group, holding management.access only. */
export const TREASURERS_GROUP = 'Penningmeesters';

export const SEED_GROUPS = [
  { name: ADMIN_GROUP, description: 'Club administrators with full access.', deletable: false },
  { name: USERS_GROUP, description: 'Registered users (default group).', deletable: false },
  {
    name: TREASURERS_GROUP,
    description: 'Treasurers: the Management dashboard (orders, invoices, payments), nothing else of the admin area.',
    deletable: false,
  },
];
