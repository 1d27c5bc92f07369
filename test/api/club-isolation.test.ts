import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { asc, eq, getTableColumns, getTableName } from 'drizzle-orm';
import { SQLiteTable } from 'drizzle-orm/sqlite-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRouter } from '../../src/app-router';
import { type ClubDb, clubDb, FIRST_CLUB_ID } from '../../src/db/club-db';
import * as schema from '../../src/db/schema';
import { bankEntries, clubs, mailOutbox, onlinePayments, orders, paymentImports, users } from '../../src/db/schema';
import { encodedForm } from '../support/encoded-form';
import { type FakeMollie, startFakeMollie } from '../support/fake-mollie';
import { setSettings, VALID_INVOICE_SETTINGS } from '../support/invoice-settings';
import { pdfText } from '../support/pdf-text';
import { CLUB_B_HOST, CLUB_B_PASSWORD, createTwoClubs, type TwoClubs } from '../support/two-clubs';

/**
 * DESIGN §6 "Many clubs on one deployment", docs/decisions/071: club B's admin, on B's host, calls every REST route
 * the OpenAPI document lists and every tRPC procedure of the app router, naming club A's records wherever a route
 * takes an id or a token. Nothing of A comes back (every text of A carries the marker "Qwibbel"; PDFs are read as
 * text), an id of A is refused, and A's rows and files are as they were before.
 */

const MARKER = /qwibbel/i;
const MOLLIE_KEY = `test_${'q1W2e3R4t5'.repeat(3)}`;
const fixture = (name: string) => readFileSync(join(process.cwd(), 'test/fixtures/camt053', name));
const ING = fixture('ing-v02.xml');

const ORDER_OF_A = {
  name: 'Aaltje Qwibbel-A',
  email: 'aaltje.qwibbel@example.nl',
  phone: '0612345678',
  address: 'Qwibbelstraat 7',
  postal_code: '8861 BM',
  city: 'Harlingen',
  notes: 'Qwibbel: achterom bezorgen',
};

interface Answer {
  status: number;
  contentType: string;
  /** The answer as text; a PDF's text as a reader would copy it. */
  text: string;
}

/** What club A has that B's admin names in its calls. */
interface RecordsOfA {
  orderId: number;
  creditedOrderId: number;
  paidOnlineOrderId: number;
  tablerId: number;
  userId: number;
  groupId: number;
  permissionId: number;
  versionId: number;
  importId: number;
  entryId: number;
  paymentRowId: number;
  molliePaymentId: string;
  mailId: number;
  invoiceNumber: string;
  reference: string;
  sellerToken: string;
  orderPageToken: string;
  sessionId: string;
  resetToken: string;
  /** A backup the first club's admin made: the whole database, every club's rows. */
  backupName: string;
}

let t: TwoClubs;
let mollie: FakeMollie;
let a: RecordsOfA;
let cookieB: string;

/** A request on B's host as B's admin (or the cookie given), with the answer read as text (a PDF's as its text). */
async function send(
  method: string,
  path: string,
  init: { body?: unknown; form?: FormData; raw?: string; contentType?: string; cookie?: string | null; host?: string } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  const cookie = init.cookie === undefined ? cookieB : init.cookie;
  if (cookie) headers.cookie = cookie;
  let body: BodyInit | undefined;
  if (init.form) {
    const encoded = await encodedForm(init.form);
    headers['content-type'] = encoded.contentType;
    body = encoded.body;
  } else if (init.raw !== undefined) {
    headers['content-type'] = init.contentType ?? 'text/plain';
    body = init.raw;
  } else if (init.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(init.body);
  }
  const response = await t.app.request(`http://${init.host ?? CLUB_B_HOST}${path}`, { method, headers, body });
  const contentType = response.headers.get('content-type') ?? '';
  const bytes = new Uint8Array(await response.arrayBuffer());
  const text = contentType.includes('application/pdf') ? await pdfText(bytes) : new TextDecoder().decode(bytes);
  return { status: response.status, contentType, text };
}

const query = (params: Record<string, string | number>) => `?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`;
const trpcQuery = (name: string, input?: unknown) => send('GET', `/trpc/${name}${input === undefined ? '' : query({ input: JSON.stringify(input) })}`);
const trpcMutation = (name: string, input?: unknown) => send('POST', `/trpc/${name}`, { body: input ?? {} });

/** Makes the call from a new session of B's admin and goes on with that one (the call ends the others). */
async function withFreshSession(call: () => Promise<Answer>): Promise<Answer> {
  cookieB = await freshSessionOfB();
  return call();
}

/** A new session of B's admin, for the calls that end or change the one they are made with. */
async function freshSessionOfB(): Promise<string> {
  const login = await t.request('/api/account/login', { host: CLUB_B_HOST, body: { username: 'admin', password: CLUB_B_PASSWORD } });
  expect(login.status, login.text).toBe(200);
  return login.headers.get('set-cookie')!.split(';')[0]!;
}

function apkForm(name: string, code: string): FormData {
  const form = new FormData();
  form.append('version_code', code);
  form.append('version_name', name);
  form.append('apk_file', new Blob([new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 4])]), 'app.apk');
  return form;
}

function statementForm(xml: Uint8Array | string): FormData {
  const form = new FormData();
  const bytes = typeof xml === 'string' ? new TextEncoder().encode(xml) : xml;
  form.append('file', new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'text/xml' }), 'afschrift.xml');
  return form;
}

/**
 * One case per REST route (`METHOD /path` as the OpenAPI document writes it) and per tRPC procedure: the call B's
 * admin makes, and the statuses it may answer. `why` says why a call cannot name anything of A.
 */
interface Case {
  call: () => Promise<Answer>;
  status: number;
  /** The refusal's code; a 404 names some NOT_FOUND unless told otherwise. */
  code?: string;
  why?: string;
}

/** A refusal's code, from REST's `{ code }` or tRPC's `{ error: { data: { code } } }`. */
function codeOf(answer: Answer): string | undefined {
  try {
    const json = JSON.parse(answer.text) as { code?: string; error?: { data?: { code?: string } } };
    return json.code ?? json.error?.data?.code;
  } catch {
    return undefined;
  }
}

function restCases(): Record<string, Case> {
  const id = (n: number | string) => query({ id: n });
  return {
    'GET /api/health': { call: () => send('GET', '/api/health'), status: 200, why: 'the deployment’s health: no club’s data' },
    'GET /api/users/deleteuser': { call: () => send('GET', `/api/users/deleteuser${id(a.userId)}`), status: 404 },
    'GET /api/groups/deletegroup': { call: () => send('GET', `/api/groups/deletegroup${id(a.groupId)}`), status: 404 },
    'GET /api/permissions/delete': { call: () => send('GET', `/api/permissions/delete${id(a.permissionId)}`), status: 404 },
    'GET /api/twofactor/setup': { call: () => send('GET', '/api/twofactor/setup'), status: 200, why: 'B’s admin’s own second factor' },
    'GET /api/settings': { call: () => send('GET', '/api/settings'), status: 200 },
    'POST /api/settings/add': {
      call: () => send('POST', '/api/settings/add', { body: { key: 'geheime_sleutel_a', value: 'van B', type: 'string' } }),
      status: 200,
      why: 'A’s key made again in B: B’s own row, A’s stays',
    },
    'POST /api/settings/edit': {
      call: () => send('POST', '/api/settings/edit', { body: { key: 'geheime_sleutel_a', value: 'van B bewerkt', type: 'string' } }),
      status: 200,
    },
    'POST /api/settings/update': {
      call: () => send('POST', '/api/settings/update', { body: { key: 'club_name', value: 'Ronde Tafel 99 Sneek' } }),
      status: 200,
    },
    'POST /api/settings/delete': { call: () => send('POST', '/api/settings/delete', { body: { key: 'geheime_sleutel_a' } }), status: 200 },
    'GET /api/account/me': { call: () => send('GET', '/api/account/me'), status: 200 },
    'POST /api/account/login': {
      call: () => send('POST', '/api/account/login', { body: { username: 'qwibbelgebruiker', password: 'x'.repeat(12) }, cookie: null }),
      status: 401,
      why: 'A’s user by name on B’s host',
    },
    'POST /api/account/logout': {
      call: async () => send('POST', '/api/account/logout', { cookie: await freshSessionOfB() }),
      status: 200,
      why: 'ends only the session it is sent with (a fresh one of B)',
    },
    'POST /api/account/register': {
      call: () => send('POST', '/api/account/register', { body: { username: 'nieuw_in_b', email: null, password: 'een-lang-wachtwoord' }, cookie: null }),
      status: 403,
      code: 'REGISTRATION_DISABLED',
      why: 'a new club starts with registration off',
    },
    'POST /api/account/edit': { call: () => send('POST', '/api/account/edit', { body: { email: 'beheer@sneek.example' } }), status: 200 },
    'POST /api/account/changepassword': {
      call: async () =>
        send('POST', '/api/account/changepassword', {
          body: { old_password: t.adminAPassword, new_password: 'ander-wachtwoord-1' },
          cookie: await freshSessionOfB(),
        }),
      status: 400,
      code: 'OLD_PASSWORD_INCORRECT',
      why: 'A’s admin’s password is no password of B’s admin',
    },
    'POST /api/account/locale': { call: () => send('POST', '/api/account/locale', { body: { locale: 'nl' } }), status: 200 },
    'POST /api/account/forgot': {
      call: () => send('POST', '/api/account/forgot', { body: { login: 'qwibbel.gebruiker@example.nl' }, cookie: null }),
      status: 200,
      why: 'the same answer for any login; no mail goes to A’s user (B’s outbox is checked)',
    },
    'POST /api/account/reset': {
      call: () => send('POST', '/api/account/reset', { body: { token: a.resetToken, new_password: 'overgenomen-wachtwoord' }, cookie: null }),
      status: 400,
      code: 'RESET_LINK_INVALID',
    },
    'GET /api/account/sessions': { call: () => send('GET', '/api/account/sessions'), status: 200 },
    'POST /api/account/sessions/revoke': { call: () => send('POST', '/api/account/sessions/revoke', { body: { id: a.sessionId } }), status: 404 },
    'POST /api/account/sessions/revoke-others': {
      call: () => withFreshSession(() => send('POST', '/api/account/sessions/revoke-others')),
      status: 200,
      why: 'B’s admin’s other sessions only, from a fresh session the next calls go on with',
    },
    'POST /api/twofactor/verify': { call: () => send('POST', '/api/twofactor/verify', { body: { code: '000000' } }), status: 400 },
    'POST /api/twofactor/completelogin': { call: () => send('POST', '/api/twofactor/completelogin', { body: { code: '000000' } }), status: 401 },
    'POST /api/twofactor/check': { call: () => send('POST', '/api/twofactor/check', { body: { code: '000000' } }), status: 400 },
    'POST /api/twofactor/disable': { call: () => send('POST', '/api/twofactor/disable', { body: { code: '000000' } }), status: 400 },
    'GET /api/users': { call: () => send('GET', '/api/users'), status: 200 },
    'POST /api/users/assigngroup': { call: () => send('POST', '/api/users/assigngroup', { body: { user_id: a.userId, group_id: a.groupId } }), status: 404 },
    'POST /api/users/removegroup': { call: () => send('POST', '/api/users/removegroup', { body: { user_id: a.userId, group_id: a.groupId } }), status: 404 },
    'POST /api/users/invite': {
      call: () => send('POST', '/api/users/invite', { body: { username: 'eigen_b', email: 'eigen.b@sneek.example', group_ids: [a.groupId] } }),
      status: 404,
      code: 'GROUP_NOT_FOUND',
      why: 'A’s group given to a new user of B',
    },
    'POST /api/users/edituser': { call: () => send('POST', `/api/users/edituser${id(a.userId)}`, { body: { status: 'inactive' } }), status: 404 },
    'GET /api/groups': { call: () => send('GET', `/api/groups${id(a.groupId)}`), status: 404 },
    'POST /api/groups/addgroup': { call: () => send('POST', '/api/groups/addgroup', { body: { name: 'Eigen groep B', description: null } }), status: 200 },
    'POST /api/groups/addpermissions': {
      call: () => send('POST', '/api/groups/addpermissions', { body: { group_id: a.groupId, permission_ids: [a.permissionId] } }),
      status: 404,
    },
    'POST /api/groups/removepermissions': {
      call: () => send('POST', '/api/groups/removepermissions', { body: { group_id: a.groupId, permission_ids: [a.permissionId] } }),
      status: 404,
    },
    'GET /api/permissions': { call: () => send('GET', '/api/permissions'), status: 200 },
    'POST /api/permissions/add': { call: () => send('POST', '/api/permissions/add', { body: { key: 'eigen.b', description: null } }), status: 200 },
    'GET /api/update/list': { call: () => send('GET', '/api/update/list'), status: 200 },
    'POST /api/update/upload': {
      call: () => send('POST', '/api/update/upload', { form: apkForm('eigen-b-1.0', '77') }),
      status: 200,
      why: 'A’s version code again, in B: its own row and file',
    },
    'GET /api/update/download': { call: () => send('GET', `/api/update/download${id(a.versionId)}`), status: 404 },
    'GET /api/update/latest': { call: () => send('GET', '/api/update/latest'), status: 200, why: 'B’s own newest version (its upload above)' },
    'POST /api/update/delete': { call: () => send('POST', `/api/update/delete${id(a.versionId)}`), status: 404 },
    'POST /tablers/create': { call: () => send('POST', '/tablers/create', { body: { name: 'Eigen Tabler B' } }), status: 200 },
    'POST /tablers/update': {
      call: () => send('POST', `/tablers/update${id(a.tablerId)}`, { body: { name: 'Overgenomen' } }),
      status: 404,
      code: 'TABLER_NOT_FOUND',
    },
    'POST /tablers/delete': { call: () => send('POST', `/tablers/delete${id(a.tablerId)}`), status: 404 },
    'GET /tablers': { call: () => send('GET', '/tablers'), status: 200 },
    'POST /tablers/match': {
      call: () => send('POST', '/tablers/match', { body: { password: 'Zebedeus Qwibbel' }, cookie: null }),
      status: 400,
      code: 'GATE_NO_MATCH',
    },
    'POST /tablers/link': { call: () => send('POST', `/tablers/link${id(a.tablerId)}`, { body: { renew: true } }), status: 404 },
    'GET /tablers/link/flyer.pdf': { call: () => send('GET', `/tablers/link/flyer.pdf${id(a.tablerId)}`), status: 404 },
    'GET /api/sellers/{token}': { call: () => send('GET', `/api/sellers/${a.sellerToken}`, { cookie: null }), status: 404 },
    'GET /orders': { call: () => send('GET', `/orders${query({ q: 'Aaltje', tabler_id: a.tablerId })}`), status: 200 },
    'POST /orders/update': {
      call: () => send('POST', `/orders/update${id(a.orderId)}`, { body: { ...ORDER_OF_A, name: 'Overgenomen', amount: 1 } }),
      status: 404,
    },
    'POST /orders/delete': { call: () => send('POST', `/orders/delete${id(a.orderId)}`), status: 404, code: 'ORDER_NOT_FOUND' },
    'POST /orders/create': {
      call: () => send('POST', '/orders/create', { body: { ...ORDER_OF_A, name: 'Bestelling via A’s tabler', tabler_id: a.tablerId, amount: 1 } }),
      status: 400,
      code: 'UNKNOWN_TABLER',
      why: 'an order of B naming A’s tabler',
    },
    'GET /orders/export.csv': { call: () => send('GET', `/orders/export.csv${query({ q: 'Aaltje' })}`), status: 200 },
    'GET /orders/export/journal.csv': { call: () => send('GET', `/orders/export/journal.csv${query({ year: 2026 })}`), status: 200 },
    'POST /orders/sendInvoice': { call: () => send('POST', `/orders/sendInvoice${id(a.orderId)}`), status: 404 },
    'POST /orders/creditInvoice': { call: () => send('POST', `/orders/creditInvoice${id(a.orderId)}`), status: 404 },
    'POST /orders/sendReminder': { call: () => send('POST', `/orders/sendReminder${id(a.orderId)}`, { body: { force: true } }), status: 404 },
    'POST /orders/bulk': {
      call: () => send('POST', '/orders/bulk', { body: { ids: [a.orderId, a.creditedOrderId], action: 'mark_paid', force: true } }),
      status: 200,
    },
    'GET /orders/totals': { call: () => send('GET', '/orders/totals'), status: 200 },
    'GET /orders/invoice.pdf': { call: () => send('GET', `/orders/invoice.pdf${id(a.orderId)}`), status: 404 },
    'GET /orders/credit-note.pdf': { call: () => send('GET', `/orders/credit-note.pdf${id(a.creditedOrderId)}`), status: 404 },
    'GET /orders/invoice.xml': { call: () => send('GET', `/orders/invoice.xml${id(a.orderId)}`), status: 404 },
    'GET /orders/credit-note.xml': { call: () => send('GET', `/orders/credit-note.xml${id(a.creditedOrderId)}`), status: 404 },
    'POST /api/payments/import': { call: () => send('POST', '/api/payments/import', { form: statementForm(ING) }), status: 200 },
    'POST /api/payments/confirm': { call: () => send('POST', '/api/payments/confirm', { body: { import_id: a.importId } }), status: 404 },
    'GET /api/payments/imports': { call: () => send('GET', `/api/payments/imports${id(a.importId)}`), status: 404 },
    'GET /api/payments/follow-ups': { call: () => send('GET', '/api/payments/follow-ups'), status: 200 },
    'POST /api/payments/follow-ups/resolve': {
      call: () => send('POST', '/api/payments/follow-ups/resolve', { body: { entry_id: a.entryId, action: 'full_payment', order_id: a.orderId } }),
      status: 404,
    },
    'GET /api/payments/order': { call: () => send('GET', `/api/payments/order${query({ order_id: a.orderId })}`), status: 404 },
    'GET /api/order-status/{token}': {
      call: () => send('GET', `/api/order-status/${a.orderPageToken}`, { cookie: null }),
      status: 404,
      code: 'ORDER_PAGE_NOT_FOUND',
    },
    'GET /api/order-status/{token}/invoice.pdf': {
      call: () => send('GET', `/api/order-status/${a.orderPageToken}/invoice.pdf`, { cookie: null }),
      status: 404,
    },
    'POST /api/order-status/{token}/pay': { call: () => send('POST', `/api/order-status/${a.orderPageToken}/pay`, { cookie: null }), status: 404 },
    'POST /api/payments/mollie/webhook': {
      call: () =>
        send('POST', '/api/payments/mollie/webhook', { raw: `id=${a.molliePaymentId}`, contentType: 'application/x-www-form-urlencoded', cookie: null }),
      status: 200,
      why: 'Mollie’s word on A’s paid payment, delivered to B’s host, which uses the same Mollie account: A’s order stays unpaid',
    },
    'GET /api/payments/online': { call: () => send('GET', '/api/payments/online'), status: 200 },
    'POST /orders/refund': { call: () => send('POST', `/orders/refund${id(a.paidOnlineOrderId)}`, { body: { amount: 1 } }), status: 404 },
    'POST /orders/setDelivered': { call: () => send('POST', `/orders/setDelivered${id(a.orderId)}`, { body: { delivered: true } }), status: 404 },
    'GET /orders/delivery-list.pdf': {
      call: () => send('GET', `/orders/delivery-list.pdf${query({ tabler_id: a.tablerId })}`),
      status: 404,
      code: 'TABLER_NOT_FOUND',
    },
    'GET /api/mail': { call: () => send('GET', '/api/mail'), status: 200 },
    'POST /api/mail/retry': { call: () => send('POST', `/api/mail/retry${id(a.mailId)}`), status: 404 },
    'GET /api/audit': { call: () => send('GET', '/api/audit'), status: 200 },
    'POST /api/admin/backups': { call: () => send('POST', '/api/admin/backups'), status: 404, why: 'a backup holds every club: the first club’s only' },
    'GET /api/admin/backups': { call: () => send('GET', '/api/admin/backups'), status: 404, code: 'BACKUP_NOT_FOUND' },
    'GET /api/admin/backups/download': {
      call: () => send('GET', `/api/admin/backups/download${query({ name: a.backupName })}`),
      status: 404,
    },
    'POST /contact/send': {
      call: () =>
        send('POST', '/contact/send', {
          body: { name: 'Bezoeker B', email: 'bezoeker@sneek.example', subject: 'Vraag', message: 'Een vraag aan club B.' },
          cookie: null,
        }),
      status: 200,
    },
    'GET /api/geocode/search': {
      call: () => send('GET', `/api/geocode/search${query({ q: 'Qwibbelstraat' })}`),
      status: 200,
      why: 'an address lookup: no club’s rows',
    },
    'GET /api/platform/clubs': { call: () => send('GET', '/api/platform/clubs'), status: 403 },
    'POST /api/platform/clubs': {
      call: () => send('POST', '/api/platform/clubs', { body: { name: 'Nog een', slug: 'nog-een', hosts: ['nog.club.test'], admin_email: 'n@n.nl' } }),
      status: 403,
    },
    'POST /api/platform/clubs/update': {
      call: () => send('POST', `/api/platform/clubs/update${id(FIRST_CLUB_ID)}`, { body: { name: 'Overgenomen' } }),
      status: 403,
    },
    'POST /api/clubs/signup': {
      call: () =>
        send('POST', '/api/clubs/signup', {
          body: { club_name: 'Tafel Aanmelding', slug: 'kerstactie', email: 'aanmelder@example.nl', username: 'aanmelder', password: 'een-lang-wachtwoord' },
          cookie: null,
        }),
      status: 404,
      code: 'CLUB_SIGNUP_CLOSED',
      why: 'A’s slug asked for on B’s host while sign-up is off (club_signup): refused; sign-up itself is in clubs.test.ts',
    },
    'POST /api/clubs/verify': {
      call: () => send('POST', '/api/clubs/verify', { body: { token: a.resetToken }, cookie: null }),
      status: 400,
      code: 'CLUB_SIGNUP_LINK_INVALID',
    },
    'GET /api/openapi.json': { call: () => send('GET', '/api/openapi.json'), status: 200, why: 'the contract: no club’s data' },
    'GET /api/docs': { call: () => send('GET', '/api/docs'), status: 200, why: 'the contract’s page: no club’s data' },
  };
}

function trpcCases(): Record<string, Case> {
  return {
    'account.me': { call: () => trpcQuery('account.me'), status: 200 },
    'account.login': {
      call: () => send('POST', '/trpc/account.login', { body: { username: 'qwibbelgebruiker', password: 'x'.repeat(12) }, cookie: null }),
      status: 401,
    },
    'account.logout': { call: async () => send('POST', '/trpc/account.logout', { body: {}, cookie: await freshSessionOfB() }), status: 200 },
    'account.register': {
      call: () => send('POST', '/trpc/account.register', { body: { username: 'nieuw_in_b2', email: null, password: 'een-lang-wachtwoord' }, cookie: null }),
      status: 403,
    },
    'account.editEmail': { call: () => trpcMutation('account.editEmail', { email: 'beheer@sneek.example' }), status: 200 },
    'account.changePassword': {
      call: async () =>
        send('POST', '/trpc/account.changePassword', {
          body: { old_password: t.adminAPassword, new_password: 'ander-wachtwoord-1' },
          cookie: await freshSessionOfB(),
        }),
      status: 400,
      code: 'OLD_PASSWORD_INCORRECT',
    },
    'account.setLocale': { call: () => trpcMutation('account.setLocale', { locale: 'en' }), status: 200 },
    'account.forgotPassword': {
      call: () => send('POST', '/trpc/account.forgotPassword', { body: { login: 'qwibbelgebruiker' }, cookie: null }),
      status: 200,
    },
    'account.resetPassword': {
      call: () => send('POST', '/trpc/account.resetPassword', { body: { token: a.resetToken, new_password: 'overgenomen-wachtwoord' }, cookie: null }),
      status: 400,
      code: 'RESET_LINK_INVALID',
    },
    'account.sessions': { call: () => trpcQuery('account.sessions'), status: 200 },
    'account.revokeSession': { call: () => trpcMutation('account.revokeSession', { id: a.sessionId }), status: 404 },
    'account.revokeOtherSessions': {
      call: () => withFreshSession(() => send('POST', '/trpc/account.revokeOtherSessions', { body: {} })),
      status: 200,
    },
    'audit.list': { call: () => trpcQuery('audit.list', { page: 1 }), status: 200 },
    'backups.list': { call: () => trpcQuery('backups.list'), status: 404, code: 'BACKUP_NOT_FOUND' },
    'backups.create': { call: () => trpcMutation('backups.create'), status: 404 },
    'clubs.list': { call: () => trpcQuery('clubs.list'), status: 403 },
    'clubs.create': {
      call: () => trpcMutation('clubs.create', { name: 'Nog een', slug: 'nog-een', hosts: ['nog.club.test'], admin_email: 'n@n.nl' }),
      status: 403,
    },
    'clubs.update': { call: () => trpcMutation('clubs.update', { id: FIRST_CLUB_ID, status: 'suspended' }), status: 403 },
    'clubs.signup': {
      call: () =>
        send('POST', '/trpc/clubs.signup', {
          body: { club_name: 'Tafel Aanmelding', slug: 'kerstactie', email: 'aanmelder@example.nl', username: 'aanmelder', password: 'een-lang-wachtwoord' },
          cookie: null,
        }),
      status: 404,
      code: 'CLUB_SIGNUP_CLOSED',
    },
    'clubs.verify': {
      call: () => send('POST', '/trpc/clubs.verify', { body: { token: a.resetToken }, cookie: null }),
      status: 400,
      code: 'CLUB_SIGNUP_LINK_INVALID',
    },
    'contact.send': {
      call: () =>
        send('POST', '/trpc/contact.send', {
          body: { name: 'Bezoeker B', email: 'bezoeker@sneek.example', subject: 'Vraag', message: 'Nog een vraag aan B.' },
          cookie: null,
        }),
      status: 200,
    },
    'orders.create': {
      call: () => trpcMutation('orders.create', { ...ORDER_OF_A, name: 'Bestelling via A’s tabler', tabler_id: a.tablerId, amount: 1 }),
      status: 400,
      code: 'UNKNOWN_TABLER',
    },
    'orders.list': { call: () => trpcQuery('orders.list', { q: 'Aaltje' }), status: 200 },
    'orders.page': { call: () => trpcQuery('orders.page', { tabler_id: String(a.tablerId) }), status: 200 },
    'orders.update': { call: () => trpcMutation('orders.update', { id: a.orderId, order: { ...ORDER_OF_A, name: 'Overgenomen', amount: 1 } }), status: 404 },
    'orders.setPaid': { call: () => trpcMutation('orders.setPaid', { id: a.orderId, paid: true }), status: 404 },
    'orders.delete': { call: () => trpcMutation('orders.delete', { id: a.orderId }), status: 404, code: 'ORDER_NOT_FOUND' },
    'invoices.send': { call: () => trpcMutation('invoices.send', { id: a.orderId }), status: 404 },
    'invoices.credit': { call: () => trpcMutation('invoices.credit', { id: a.orderId }), status: 404 },
    'invoices.remind': { call: () => trpcMutation('invoices.remind', { id: a.orderId, force: true }), status: 404 },
    'invoices.bulk': { call: () => trpcMutation('invoices.bulk', { ids: [a.orderId], action: 'send_invoice', force: true }), status: 200 },
    'invoices.totals': { call: () => trpcQuery('invoices.totals'), status: 200 },
    'invoices.readiness': { call: () => trpcQuery('invoices.readiness'), status: 200 },
    'payments.confirm': { call: () => trpcMutation('payments.confirm', { import_id: a.importId }), status: 404 },
    'payments.imports': { call: () => trpcQuery('payments.imports'), status: 200 },
    'payments.entries': { call: () => trpcQuery('payments.entries', { import_id: a.importId }), status: 404 },
    'payments.forOrder': { call: () => trpcQuery('payments.forOrder', { order_id: a.orderId }), status: 404 },
    'payments.followUps': { call: () => trpcQuery('payments.followUps'), status: 200 },
    'payments.resolve': { call: () => trpcMutation('payments.resolve', { entry_id: a.entryId, action: 'full_payment', order_id: a.orderId }), status: 404 },
    'payments.order': {
      call: () => trpcQuery('payments.order', { reference: a.reference }),
      status: 200,
      why: 'A’s first reference is B’s first too (a series per club): B’s own order answers',
    },
    'onlinePayments.list': { call: () => trpcQuery('onlinePayments.list', {}), status: 200 },
    'onlinePayments.refund': { call: () => trpcMutation('onlinePayments.refund', { id: a.paidOnlineOrderId, amount: 1 }), status: 404 },
    'onlinePayments.keyStatus': { call: () => trpcQuery('onlinePayments.keyStatus'), status: 200 },
    'delivery.setDelivered': { call: () => trpcMutation('delivery.setDelivered', { id: a.orderId, delivered: true }), status: 404 },
    'mail.list': { call: () => trpcQuery('mail.list', {}), status: 200 },
    'mail.retry': { call: () => trpcMutation('mail.retry', { id: a.mailId }), status: 404 },
    'tablers.list': { call: () => trpcQuery('tablers.list'), status: 200 },
    'tablers.create': { call: () => trpcMutation('tablers.create', { name: 'Tweede Tabler B' }), status: 200 },
    'tablers.update': { call: () => trpcMutation('tablers.update', { id: a.tablerId, name: 'Overgenomen' }), status: 404, code: 'TABLER_NOT_FOUND' },
    'tablers.delete': { call: () => trpcMutation('tablers.delete', { id: a.tablerId }), status: 404 },
    'tablers.link': { call: () => trpcMutation('tablers.link', { id: a.tablerId, renew: false }), status: 404 },
    'tablers.match': {
      call: () => send('POST', '/trpc/tablers.match', { body: { password: 'Zebedeus Qwibbel' }, cookie: null }),
      status: 400,
      code: 'GATE_NO_MATCH',
    },
    'settings.list': { call: () => trpcQuery('settings.list'), status: 200 },
    'settings.add': { call: () => trpcMutation('settings.add', { key: 'geheime_sleutel_a', value: 'van B', type: 'string' }), status: 200 },
    'settings.edit': { call: () => trpcMutation('settings.edit', { key: 'geheime_sleutel_a', value: 'van B bewerkt', type: 'string' }), status: 200 },
    'settings.update': { call: () => trpcMutation('settings.update', { key: 'club_name', value: 'Ronde Tafel 99 Sneek' }), status: 200 },
    'settings.delete': { call: () => trpcMutation('settings.delete', { key: 'geheime_sleutel_a' }), status: 200 },
    'twoFactor.setup': { call: () => trpcMutation('twoFactor.setup'), status: 200 },
    'twoFactor.verify': { call: () => trpcMutation('twoFactor.verify', { code: '000000' }), status: 400 },
    'twoFactor.completeLogin': { call: () => trpcMutation('twoFactor.completeLogin', { code: '000000' }), status: 401 },
    'twoFactor.check': { call: () => trpcMutation('twoFactor.check', { code: '000000' }), status: 400 },
    'twoFactor.disable': { call: () => trpcMutation('twoFactor.disable', { code: '000000' }), status: 400 },
    'versions.list': { call: () => trpcQuery('versions.list'), status: 200 },
    'versions.delete': { call: () => trpcMutation('versions.delete', { id: a.versionId }), status: 404 },
    'users.list': { call: () => trpcQuery('users.list'), status: 200 },
    'users.assignGroup': { call: () => trpcMutation('users.assignGroup', { user_id: a.userId, group_id: a.groupId }), status: 404 },
    'users.removeGroup': { call: () => trpcMutation('users.removeGroup', { user_id: a.userId, group_id: a.groupId }), status: 404 },
    'users.invite': {
      call: () => trpcMutation('users.invite', { username: 'eigen_b2', email: 'eigen.b2@sneek.example', group_ids: [a.groupId] }),
      status: 404,
      code: 'GROUP_NOT_FOUND',
    },
    'users.edit': { call: () => trpcMutation('users.edit', { id: a.userId, status: 'inactive' }), status: 404 },
    'users.delete': { call: () => trpcMutation('users.delete', { id: a.userId }), status: 404 },
    'groups.list': { call: () => trpcQuery('groups.list'), status: 200 },
    'groups.get': { call: () => trpcQuery('groups.get', { id: a.groupId }), status: 404 },
    'groups.add': { call: () => trpcMutation('groups.add', { name: 'Tweede groep B', description: null }), status: 200 },
    'groups.delete': { call: () => trpcMutation('groups.delete', { id: a.groupId }), status: 404 },
    'groups.addPermissions': { call: () => trpcMutation('groups.addPermissions', { group_id: a.groupId, permission_ids: [a.permissionId] }), status: 404 },
    'groups.removePermissions': {
      call: () => trpcMutation('groups.removePermissions', { group_id: a.groupId, permission_ids: [a.permissionId] }),
      status: 404,
    },
    'permissions.list': { call: () => trpcQuery('permissions.list'), status: 200 },
    'permissions.add': { call: () => trpcMutation('permissions.add', { key: 'eigen.b2', description: null }), status: 200 },
    'permissions.delete': { call: () => trpcMutation('permissions.delete', { id: a.permissionId }), status: 404 },
  };
}

/** Every table a club owns (it has `club_id`), and the clubs table, whose own row the handle reads. */
const clubTables = (Object.values(schema) as unknown[]).filter(
  (table): table is SQLiteTable => table instanceof SQLiteTable && (getTableName(table) === getTableName(clubs) || 'clubId' in getTableColumns(table)),
);

/** Club A's rows of every table, through A's handle, and its files (not the database's own), by content digest. */
async function snapshotOfA() {
  const dbA = clubDb(t.database, FIRST_CLUB_ID);
  const rows: Record<string, unknown[]> = {};
  for (const table of clubTables) rows[getTableName(table)] = await dbA.select().from(table);
  const files: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (!/^test\.db/.test(name) && !relative(t.dir, path).startsWith(`clubs/${t.clubB}/`))
        files[relative(t.dir, path)] = createHash('sha256').update(readFileSync(path)).digest('hex');
    }
  };
  if (existsSync(t.dir)) walk(t.dir);
  return { rows, files };
}

/**
 * A's user by name and address, as B's caller types them into sign-in and forgot-password: B's audit log and
 * rate-limit buckets record what was typed, so these two are taken out of those before looking for A's marker.
 * Every other text of A (its orders, tablers, groups, audit entries) still carries the marker.
 */
const TYPED_BY_B = ['qwibbelgebruiker', 'qwibbel.gebruiker@example.nl'];
const RECORDS_OF_TYPING = new Set(['audit_log', 'rate_limits']);
const withoutTyped = (text: string) => TYPED_BY_B.reduce((rest, typed) => rest.split(typed).join(''), text);

/** Every row of every table of a club as one text, to look for A's markers in what B holds. */
async function allRowsText(db: ClubDb): Promise<string> {
  const parts: string[] = [];
  for (const table of clubTables) {
    const text = JSON.stringify(await db.select().from(table));
    parts.push(RECORDS_OF_TYPING.has(getTableName(table)) ? withoutTyped(text) : text);
  }
  return parts.join('\n');
}

describe('club B’s admin reaches nothing of club A, on any route (DESIGN §6, docs/decisions/071)', () => {
  let before: Awaited<ReturnType<typeof snapshotOfA>>;
  const answers = new Map<string, Answer>();

  beforeAll(async () => {
    mollie = await startFakeMollie({ now: () => t.clock.now() });
    mollie.deliverWebhooks = false;
    t = await createTwoClubs({ env: { MOLLIE_API_URL: mollie.url } });
    cookieB = t.adminB;
    a = await fillClubA();
    // B takes online payments with the same Mollie account as A: Mollie would show it A's payments too.
    await setSettings({ ...t, request: (path, init = {}) => t.request(path, { ...init, host: CLUB_B_HOST }) }, t.adminB, {
      online_payments: 'true',
      mollie_api_key: MOLLIE_KEY,
    });
    // B's own order, so its lists, totals and exports have something to show.
    const own = await t.asB('/orders/create', {
      body: { ...ORDER_OF_A, name: 'Bert Eigen-B', email: 'bert@sneek.example', address: 'Kleine Kerkstraat 1', city: 'Sneek', notes: '', amount: 2 },
    });
    expect(own.status, own.text).toBe(200);
    before = await snapshotOfA();
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await mollie?.close();
  });

  it('has a case for every REST route the OpenAPI document lists and for every tRPC procedure', async () => {
    const document = (await t.request('/api/openapi.json')).json as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(Object.keys(restCases()).sort()).toEqual(documented.sort());
    expect(Object.keys(trpcCases()).sort()).toEqual(Object.keys(appRouter._def.procedures).sort());
  });

  it('answers every call with B’s own data or a refusal, and none names anything of A', async () => {
    const problems: string[] = [];
    const markersOfA = [MARKER, a.sellerToken, a.orderPageToken, a.molliePaymentId];
    for (const [name, cases] of [
      ['REST', restCases()],
      ['tRPC', trpcCases()],
    ] as const) {
      for (const [key, item] of Object.entries(cases)) {
        const answer = await item.call();
        answers.set(`${name} ${key}`, answer);
        const text = /audit/.test(key) ? withoutTyped(answer.text) : answer.text;
        if (answer.status !== item.status) problems.push(`${name} ${key}: status ${answer.status}, expected ${item.status}: ${answer.text.slice(0, 200)}`);
        const code = codeOf(answer);
        if (item.code ? code !== item.code : answer.status === 404 && !code?.endsWith('NOT_FOUND')) problems.push(`${name} ${key}: code ${code}`);
        if (answer.status >= 500) problems.push(`${name} ${key}: ${answer.status}`);
        for (const marker of markersOfA) {
          if (typeof marker === 'string' ? text.includes(marker) : marker.test(text)) problems.push(`${name} ${key}: answers ${String(marker)}`);
        }
      }
      // Calls that end sessions leave B's admin with a fresh one for the next table.
      cookieB = await freshSessionOfB();
    }
    expect(problems).toEqual([]);
    expect(t.errors).toEqual([]);
  }, 120_000);

  it('answers a bulk action on A’s orders with “not found” for each, and changes none', () => {
    const rest = JSON.parse(answers.get('REST POST /orders/bulk')!.text) as { results: { id: number; success: boolean; code: string }[] };
    expect(rest.results).toEqual([
      { id: a.orderId, success: false, error: 'Bestelling niet gevonden.', code: 'ORDER_NOT_FOUND' },
      { id: a.creditedOrderId, success: false, error: 'Bestelling niet gevonden.', code: 'ORDER_NOT_FOUND' },
    ]);
    const trpc = JSON.parse(answers.get('tRPC invoices.bulk')!.text) as { result: { data: { results: { code: string }[] } } };
    expect(trpc.result.data.results.map((r) => r.code)).toEqual(['ORDER_NOT_FOUND']);
  });

  it('leaves every row and file of A as it was', async () => {
    expect(Object.keys(before.rows)).toEqual(
      expect.arrayContaining([
        'orders',
        'tablers',
        'users',
        'groups',
        'audit_log',
        'mail_outbox',
        'bank_entries',
        'online_payments',
        'versions',
        'settings',
        'sessions',
      ]),
    );
    const after = await snapshotOfA();
    for (const table of Object.keys(before.rows)) expect(after.rows[table], table).toEqual(before.rows[table]);
    expect(after.files).toEqual(before.files);
    // A's online payment is still open for A, though Mollie's word that it is paid was delivered on B's host.
    const [payment] = await clubDb(t.database, FIRST_CLUB_ID).select().from(onlinePayments).where(eq(onlinePayments.id, a.paymentRowId));
    expect(payment!.status).toBe('open');
    // B's host did ask Mollie for A's payment with B's key, and was told it is paid.
    expect(mollie.requests.some((r) => r.method === 'GET' && r.path.endsWith(a.molliePaymentId))).toBe(true);
  });

  it('copies nothing of A into B’s rows: no order, mail, audit entry or bank entry of B names A', async () => {
    expect(await allRowsText(t.dbB)).not.toMatch(MARKER);
    const mailOfB = await t.dbB.select().from(mailOutbox);
    expect(mailOfB.map((m) => m.toAddress)).not.toContain('qwibbel.gebruiker@example.nl');
  });

  it('matches a statement uploaded in B against B’s orders only, though it names A’s references', async () => {
    const statement = answers.get('REST POST /api/payments/import')!;
    const result = JSON.parse(statement.text) as { import_id: number; entries: { order_id?: number; reference?: string }[] };
    const idsOfA = (await clubDb(t.database, FIRST_CLUB_ID).select({ id: orders.id }).from(orders)).map((o) => o.id);
    for (const entry of result.entries) if (entry.order_id !== undefined) expect(idsOfA).not.toContain(entry.order_id);
    const [importOfB] = await t.dbB.select().from(paymentImports).where(eq(paymentImports.id, result.import_id));
    expect(importOfB).toBeDefined();
    const entriesOfB = await t.dbB.select().from(bankEntries).where(eq(bankEntries.importId, result.import_id));
    for (const entry of entriesOfB) if (entry.orderId !== null) expect(idsOfA).not.toContain(entry.orderId);
  });

  it('finds nothing of A in B’s search, and counts only B’s orders in its totals', async () => {
    const search = JSON.parse((await send('GET', `/orders${query({ q: 'Aaltje', page: 1 })}`)).text);
    expect([search.total, search.orders]).toEqual([0, []]);
    const all = JSON.parse((await send('GET', '/orders')).text);
    const namesOfB = all.map((o: { name: string }) => o.name);
    expect(namesOfB).toContain('Bert Eigen-B');
    expect(namesOfB.join()).not.toMatch(MARKER);
    const ordersOfB = await t.dbB.select().from(orders);
    const totals = await send('GET', '/orders/totals');
    expect(totals.status).toBe(200);
    // B's one order of 2 packages; A has four orders of 7 packages.
    expect(ordersOfB).toHaveLength(1);
    expect(JSON.parse(totals.text)).toMatchObject({ orders: 1, packages: 2, revenue_incl: 181.5, invoices_sent: 0, paid: { orders: 0, amount_incl: 0 } });
    expect(JSON.parse(answers.get('tRPC invoices.totals')!.text).result.data).toMatchObject({ orders: 1, packages: 2 });
    const csv = answers.get('REST GET /orders/export.csv')!;
    expect(csv.text).not.toMatch(MARKER);
    // A's invoices, credit note and payments are not in B's books: B has none, so only the header (the text as
    // decoded, without its byte-order mark).
    const journal = answers.get('REST GET /orders/export/journal.csv')!;
    expect(journal.text).toBe('datum;boekstuk;omschrijving;rekening;debet;credit;btw_tarief\r\n');
    const ofA = await t.app.request('http://127.0.0.1/orders/export/journal.csv?year=2026', { headers: { cookie: t.adminA } });
    expect(await ofA.text()).toMatch(MARKER);
  });

  it('gives B’s own invoice PDF and delivery list with B’s order only', async () => {
    await setSettings(
      { ...t, request: (path, init = {}) => t.request(path, { ...init, host: CLUB_B_HOST, cookie: cookieB }) },
      cookieB,
      VALID_INVOICE_SETTINGS,
    );
    const [own] = await t.dbB.select({ id: orders.id }).from(orders);
    const sent = await send('POST', `/orders/sendInvoice?id=${own!.id}`);
    expect(sent.status, sent.text).toBe(200);
    const invoice = await send('GET', `/orders/invoice.pdf?id=${own!.id}`);
    expect([invoice.status, invoice.contentType]).toEqual([200, 'application/pdf']);
    expect(invoice.text).toContain('Bert Eigen-B');
    expect(invoice.text).not.toMatch(MARKER);
    const list = await send('GET', '/orders/delivery-list.pdf?tabler_id=none');
    expect([list.status, list.contentType]).toEqual([200, 'application/pdf']);
    expect(list.text).toContain('Bert Eigen-B');
    expect(list.text).not.toMatch(MARKER);
    // The same reading finds A's names in A's own PDF.
    const pdfOfA = await t.app.request(`http://127.0.0.1/orders/invoice.pdf?id=${a.orderId}`, { headers: { cookie: t.adminA } });
    expect(await pdfText(new Uint8Array(await pdfOfA.arrayBuffer()))).toContain('Aaltje Qwibbel-A');
  });

  it('keeps each club’s settings apart, cached or not: B’s change of a setting is not A’s', async () => {
    const clubName = async (host: string) =>
      (JSON.parse((await send('GET', '/api/settings', { cookie: null, host })).text) as { settings: { key: string; value: unknown }[] }).settings.find(
        (setting) => setting.key === 'club_name',
      )?.value;
    // Both read once, so both are in the settings cache.
    expect(await clubName('127.0.0.1')).toBe('Ronde Tafel Qwibbel');
    expect(await clubName(CLUB_B_HOST)).toBe('Ronde Tafel 99 Sneek');
    expect((await send('POST', '/api/settings/update', { body: { key: 'club_name', value: 'Tafel Sneek Anders' } })).status).toBe(200);
    expect(await clubName(CLUB_B_HOST)).toBe('Tafel Sneek Anders');
    expect(await clubName('127.0.0.1')).toBe('Ronde Tafel Qwibbel');
  });

  it('the checks can fail: on A’s own host the same calls do reach A', async () => {
    const listed = await t.asA(`/orders${query({ q: 'Aaltje' })}`);
    expect(listed.json.map((o: { name: string }) => o.name)).toContain(ORDER_OF_A.name);
    const page = await t.request(`/api/order-status/${a.orderPageToken}`);
    expect(page.status).toBe(200);
    const seller = await t.request(`/api/sellers/${a.sellerToken}`);
    expect(seller.json.tabler_name).toBe('Zebedeus Qwibbel');
    // Mollie's word delivered on A's host marks A's payment paid.
    const webhook = await t.request('/api/payments/mollie/webhook', {
      rawBody: `id=${a.molliePaymentId}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(webhook.status).toBe(200);
    const [payment] = await clubDb(t.database, FIRST_CLUB_ID).select().from(onlinePayments).where(eq(onlinePayments.id, a.paymentRowId));
    expect(payment!.status).toBe('paid');
  });
});

/** Club A gets one of everything, each text of it carrying the marker. */
async function fillClubA(): Promise<RecordsOfA> {
  const asA = t.asA;
  const dbA = clubDb(t.database, FIRST_CLUB_ID);
  const ok = (r: { status: number; text: string }, what: string) => expect(r.status, `${what}: ${r.text}`).toBe(200);
  await setSettings(t, t.adminA, { ...VALID_INVOICE_SETTINGS, club_name: 'Ronde Tafel Qwibbel', online_payments: 'true', mollie_api_key: MOLLIE_KEY });
  ok(await asA('/api/settings/add', { body: { key: 'geheime_sleutel_a', value: 'Qwibbel-waarde', type: 'string' } }), 'setting');

  const tabler = await asA('/tablers/create', { body: { name: 'Zebedeus Qwibbel' } });
  ok(tabler, 'tabler');
  const tablerId = tabler.json.tabler.id as number;
  const link = await asA(`/tablers/link?id=${tablerId}`, { body: { renew: false } });
  ok(link, 'seller link');
  const sellerToken = (link.json.url as string).split('/').pop()!;

  const newOrder = async (amount: number, n: number) => {
    const r = await asA('/orders/create', { body: { ...ORDER_OF_A, email: `aaltje${n}.qwibbel@example.nl`, amount, tabler_id: tablerId } });
    ok(r, 'order');
    const [row] = await dbA.select({ id: orders.id }).from(orders).where(eq(orders.reference, r.json.order_reference));
    return { id: row!.id, reference: r.json.order_reference as string, token: (r.json.order_url as string).split('/').pop()! };
  };
  // The statement's transfers: F2026-0001 for 3 packages, KP-2026-0002 for 2 (ing-v02.xml).
  const invoiced = await newOrder(3, 1);
  const byReference = await newOrder(2, 2);
  const credited = await newOrder(1, 3);
  const paidOnline = await newOrder(1, 4);
  ok(await asA(`/orders/sendInvoice?id=${invoiced.id}`, { body: {} }), 'invoice');
  ok(await asA(`/orders/sendInvoice?id=${credited.id}`, { body: {} }), 'invoice');
  ok(await asA(`/orders/creditInvoice?id=${credited.id}`, { body: {} }), 'credit note');
  const [invoiceRow] = await dbA.select({ number: orders.invoiceNumber }).from(orders).where(eq(orders.id, invoiced.id));

  const form = statementForm(ING);
  const encoded = await encodedForm(form);
  const imported = await t.app.request('http://127.0.0.1/api/payments/import', {
    method: 'POST',
    headers: { cookie: t.adminA, 'content-type': encoded.contentType },
    body: encoded.body,
  });
  const importJson = (await imported.json()) as { import_id: number; entries: { order_id?: number }[] };
  expect(imported.status, JSON.stringify(importJson)).toBe(200);
  expect(importJson.entries.map((e) => e.order_id)).toContain(byReference.id);
  ok(await asA('/api/payments/confirm', { body: { import_id: importJson.import_id } }), 'confirm');
  const [entry] = await dbA.select({ id: bankEntries.id }).from(bankEntries).where(eq(bankEntries.importId, importJson.import_id)).orderBy(asc(bankEntries.id));

  // An online payment: Mollie has it paid, but its webhook has not reached the app yet.
  const pay = await t.request(`/api/order-status/${paidOnline.token}/pay`, { method: 'POST' });
  ok(pay, 'pay');
  const molliePaymentId = (pay.json.checkout_url as string).split('/').pop()!;
  await mollie.pay(molliePaymentId);
  const [payment] = await dbA.select({ id: onlinePayments.id }).from(onlinePayments).where(eq(onlinePayments.providerId, molliePaymentId));

  const apk = await encodedForm(apkForm('qwibbel-7.7', '77'));
  const uploaded = await t.app.request('http://127.0.0.1/api/update/upload', {
    method: 'POST',
    headers: { cookie: t.adminA, 'content-type': apk.contentType },
    body: apk.body,
  });
  const uploadJson = (await uploaded.json()) as { version: { id: number } };
  expect(uploaded.status, JSON.stringify(uploadJson)).toBe(200);
  const versionId = uploadJson.version.id;

  const group = await asA('/api/groups/addgroup', { body: { name: 'QwibbelGroep', description: 'Qwibbel-groep van A' } });
  ok(group, 'group');
  const permission = await asA('/api/permissions/add', { body: { key: 'qwibbel.recht', description: 'Qwibbel' } });
  ok(permission, 'permission');
  const permissionId = (await asA('/api/permissions')).json.permissions.find((p: { key: string }) => p.key === 'qwibbel.recht').id as number;
  const invite = await asA('/api/users/invite', {
    body: { username: 'qwibbelgebruiker', email: 'qwibbel.gebruiker@example.nl', group_ids: [group.json.group.id] },
  });
  ok(invite, 'user');
  const [inviteMail] = await dbA.select().from(mailOutbox).where(eq(mailOutbox.toAddress, 'qwibbel.gebruiker@example.nl'));
  const resetToken = /token=([A-Za-z0-9_-]+)/.exec(inviteMail!.textBody)![1]!;
  ok(
    await t.request('/contact/send', {
      body: { name: 'Qwibbel Bezoeker', email: 'bezoeker.qwibbel@example.nl', subject: 'Qwibbel', message: 'Een Qwibbel-vraag aan A.' },
    }),
    'contact',
  );
  const [mail] = await dbA.select({ id: mailOutbox.id }).from(mailOutbox).orderBy(asc(mailOutbox.id)).limit(1);
  const sessionId = (await asA('/api/account/sessions')).json.sessions[0].id as string;
  const backup = await asA('/api/admin/backups', { method: 'POST' });
  ok(backup, 'backup');
  const [user] = await dbA.select({ id: users.id }).from(users).where(eq(users.username, 'qwibbelgebruiker'));
  return {
    orderId: invoiced.id,
    creditedOrderId: credited.id,
    paidOnlineOrderId: paidOnline.id,
    tablerId,
    userId: user!.id,
    groupId: group.json.group.id,
    permissionId,
    versionId,
    importId: importJson.import_id,
    entryId: entry!.id,
    paymentRowId: payment!.id,
    molliePaymentId,
    mailId: mail!.id,
    invoiceNumber: invoiceRow!.number!,
    reference: invoiced.reference,
    sellerToken,
    orderPageToken: invoiced.token,
    sessionId,
    resetToken,
    backupName: backup.json.name,
  };
}
