/**
 * docs/architecture.md §5 audit actions, `<area>.<verb>`: the one list the services write, the API filters by and
 * the admin screen offers. Add an action here before writing it.
 */
export const AUDIT_ACTIONS = [
  'auth.login',
  'auth.login_failed',
  'auth.lockout',
  'auth.logout',
  'auth.2fa_enabled',
  'auth.2fa_disabled',
  'auth.password_changed',
  'auth.password_reset_requested',
  'auth.password_reset',
  'auth.email_changed',
  'auth.session_revoked',
  'auth.registered',
  'user.invited',
  'user.updated',
  'user.deleted',
  'user.group_added',
  'user.group_removed',
  'group.created',
  'group.deleted',
  'group.permissions_changed',
  'permission.created',
  'permission.deleted',
  'setting.created',
  'setting.updated',
  'setting.deleted',
  'version.uploaded',
  'version.deleted',
  'tabler.created',
  'tabler.updated',
  'tabler.deleted',
  'tabler.link_renewed',
  'order.created',
  'order.updated',
  'order.paid',
  'order.unpaid',
  'order.delivered',
  'order.deleted',
  'invoice.sent',
  'invoice.credited',
  'invoice.reminder_sent',
  'payments.imported',
  'payments.confirmed',
  'payments.follow_up_resolved',
  'payment.received',
  'payment.double',
  'payment.refunded',
  'payment.charged_back',
  'payment.refund_requested',
  'orders.exported',
  'backup.created',
  'backup.downloaded',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export function isAuditAction(value: string): value is AuditAction {
  return (AUDIT_ACTIONS as readonly string[]).includes(value);
}
