// `npm run seed:demo -- --orders 50000 --tablers 40 [--seed 1] [--date 2026-11-22] [--force] [--club 2 [--host h]]`: fills the Node
// database (DATABASE_URL, else DATA_DIR/kerstactie.db, as `npm start` opens it) with a campaign's worth of made-up
// orders, to see the back-office at scale (docs/decisions/034). Dutch names, Harlingen addresses, a mix of new, invoiced,
// paid, reminded, credited and delivered orders dated 1 November to 24 December (up to today, or --date),
// numbered from the real sequences, so orders and invoices made afterwards go on without a gap. Mail addresses
// are @example.*: an invoice sent from the demo reaches nobody. Another --seed makes other people. Refuses a
// database that already holds orders unless --force. --club fills another club than the first (many clubs on one
// database, as the bench's "20 clubs of 2,500" run makes them), creating it with its host (default
// club<id>.bench.test) when it does not exist yet.
import { register } from 'node:module';
import { chmod, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createClient } from '@libsql/client';
import { drizzle } from 'drizzle-orm/libsql';
import { migrate } from 'drizzle-orm/libsql/migrator';
// Modules without imports of their own, loaded as they are (Node strips their types), so the demo
// rows are made by the same rules as the app's.
import { foldForSearch, orderSearchText, tablerSearchName } from '../src/db/search-text.ts';
import { computeInvoiceAmounts, parseVatSplit } from '../src/features/invoices/invoice-amounts.ts';
import { campaignYear } from '../src/core/calendar.ts';
import { namesMatch } from '../src/features/tablers/tabler-gate.ts';

// settings.defaults.ts imports server modules without an extension: the hook lets plain Node find them.
register('./ts-extension-hook.mjs', import.meta.url);
const { BUILT_IN_SETTINGS } = await import('../src/features/settings/settings.defaults.ts');

const root = join(import.meta.dirname, '..');
const ROWS_PER_INSERT = 500;
const DAY = 24 * 60 * 60 * 1000;

function fail(message) {
  console.error(message);
  process.exit(1);
}

const { values: args } = parseArgs({
  options: {
    orders: { type: 'string', default: '5000' },
    tablers: { type: 'string', default: '40' },
    seed: { type: 'string', default: '1' },
    // The day the demo is made as of (tests pin it); today by default.
    date: { type: 'string' },
    force: { type: 'boolean', default: false },
    club: { type: 'string', default: '1' },
    host: { type: 'string' },
  },
});
const count = (name, max) => {
  const text = args[name];
  if (!/^\d+$/.test(text) || Number(text) > max) fail(`--${name} must be a whole number from 0 to ${max.toLocaleString('en')}`);
  return Number(text);
};
const orderCount = count('orders', 1_000_000);
const tablerCount = count('tablers', 1_000);
const seed = count('seed', 2 ** 31);
const clubId = count('club', 1_000_000);
if (clubId < 1) fail('--club must be a club id, 1 or more');
if (args.date !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(args.date)) fail('--date must be a day like 2026-11-22');
const now = args.date === undefined ? Date.now() : Date.parse(`${args.date}T12:00:00.000Z`);

// mulberry32: small, fast and the same on every machine.
let state = seed;
function random() {
  state = (state + 0x6d2b79f5) | 0;
  let t = Math.imul(state ^ (state >>> 15), 1 | state);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const chance = (p) => random() < p;
const pick = (list) => list[Math.floor(random() * list.length)];
const between = (min, max) => min + Math.floor(random() * (max - min + 1));
/** Picks from [value, weight] pairs. */
function weighted(pairs) {
  let r = random() * pairs.reduce((sum, [, w]) => sum + w, 0);
  for (const [value, w] of pairs) {
    r -= w;
    if (r < 0) return value;
  }
  return pairs.at(-1)[0];
}

const FIRST_NAMES = [
  'Jan',
  'Pieter',
  'Sjoerd',
  'Wytze',
  'Douwe',
  'Hendrik',
  'Klaas',
  'Gerrit',
  'Bram',
  'Daan',
  'Sem',
  'Lars',
  'Ruben',
  'Thijs',
  'Joost',
  'Maarten',
  'Willem',
  'Jelle',
  'Tjeerd',
  'Auke',
  'Sietse',
  'Hidde',
  'Froukje',
  'Anna',
  'Maria',
  'Sanne',
  'Femke',
  'Lotte',
  'Marieke',
  'Anouk',
  'Ilse',
  'Sietske',
  'Baukje',
  'Tjitske',
  'Grietje',
  'Ymkje',
  'Janneke',
  'Esther',
  'Linda',
  'Ingrid',
  'Wilma',
  'Hester',
  'Noor',
  'Fenna',
  'Lieke',
  'Roos',
  'Evi',
  'Julia',
  // Names with accents, as people type them: search must find them without.
  'Zoë',
  'Noël',
  'Chloé',
  'André',
  'René',
  'Désirée',
  'Anaïs',
  'Joëlle',
  'Inès',
  'Ëlsa',
  'Loïs',
  'Mariëlle',
  'Gaël',
  'Hélène',
];
// Surnames with their tussenvoegsel ('van der', 'de'), which Dutch sorting and search must cope with.
const SURNAMES = [
  'Visser',
  'Hoekstra',
  'Dijkstra',
  'Bakker',
  'Jansen',
  'Zijlstra',
  'Postma',
  'Smit',
  'Mulder',
  'Bosma',
  'Kuipers',
  'Wiersma',
  'Terpstra',
  'Sikkema',
  'Brouwer',
  'Veenstra',
  'Kooistra',
  'Hofstra',
  'Huizinga',
  'Tuinstra',
  'Algra',
  'Kamstra',
  'Faber',
  'Poelstra',
  'Nauta',
  'Wijnsma',
  'Feenstra',
  'Hoogland',
  'Elzinga',
  'Lantinga',
  'Stelwagen',
  'Andela',
  'Bruinsma',
  'Hiemstra',
  'Rienstra',
  'Dijkhuis',
  'Wouda',
  'Zandstra',
  'de Vries',
  'de Boer',
  'de Jong',
  'de Haan',
  'de Graaf',
  'de Wit',
  'de Zwart',
  'de Groot',
  'de Bruin',
  'de Vos',
  'de Jager',
  'de Roos',
  'van der Meer',
  'van der Wal',
  'van der Heide',
  'van der Velde',
  'van der Molen',
  'van der Ploeg',
  'van der Sloot',
  'van der Schaaf',
  'van der Zee',
  'van der Veen',
  'van den Berg',
  'van den Brink',
  'van den Bosch',
  'van de Pol',
  'van de Kamp',
  'van Dijk',
  'van Wieren',
  'ter Horst',
  'ter Veen',
  "in 't Veld",
  "van 't Hof",
  'op de Weegh',
  'den Hartog',
];
const STREETS = [
  'Voorstraat',
  'Noorderhaven',
  'Zuiderhaven',
  'Grote Bredeplaats',
  'Kleine Bredeplaats',
  'Franekereind',
  'Kerkpoortstraat',
  'Lanen',
  'Raamstraat',
  'Sint Jacobstraat',
  'Zoutsloot',
  'Rommelhaven',
  'Brouwersstraat',
  'Hofstraat',
  'Droogstraat',
  'Schritsen',
  'Midlumerlaan',
  'Kimswerderweg',
  'Oosterstraat',
  'Westerzeedijk',
  'Spinnekop',
  'Simon Vestdijkstraat',
  'Van Harinxmastraat',
  'Achter de Hoven',
  'Wasbleek',
  'Zuidergrachtswal',
  'Noordijs',
  'Heiligeweg',
  'Karremanstraat',
  'Havenplein',
  'Nieuwstraat',
  'Klaverweg',
  'Koningin Julianastraat',
  'Prins Hendrikstraat',
  'Sint Christoffelsteeg',
  'Grote Kerkstraat',
  'Rozengracht',
  'Stationsweg',
  'Steenhouwersstraat',
  'Dokkumerstraat',
];
const POSTAL_LETTERS = 'ABCEGHJKLMNPRTVWXZ';
const NOTES = [
  'Graag na 17:00 bezorgen.',
  'Bel aan bij de buren als niemand thuis is.',
  'Zakelijk: factuur t.a.v. de administratie.',
  'Pakket voor mijn moeder, zij woont op de eerste verdieping.',
  'Achterom, de voordeur klemt.',
  'Liever niet op zaterdag.',
  'Cadeau: graag zonder prijs erop.',
  'Eén pakket zonder alcohol alstublieft.',
];
const MAIL_DOMAINS = ['example.nl', 'example.com', 'example.org', 'example.net'];

/** 'van der Meer' → 'vandermeer', 'Zoë' → 'zoe': the part of an address a name becomes. */
const slug = (text) => foldForSearch(text).replace(/[^a-z]/g, '');

const personName = () => ({ first: pick(FIRST_NAMES), surname: pick(SURNAMES) });

function phone() {
  return chance(0.6) ? `06-${String(between(10000000, 99999999))}` : `0517-${String(between(380000, 499999))}`;
}

// The database, opened the way `npm start` opens it (src/node.ts).
const dataDir = process.env.DATA_DIR?.trim() || 'data';
const url = process.env.DATABASE_URL?.trim() || `file:${join(dataDir, 'kerstactie.db')}`;
const authToken = process.env.DATABASE_AUTH_TOKEN?.trim() || undefined;
if (!process.env.DATABASE_URL?.trim()) {
  // As the app keeps it (src/node.ts): the data folder is the owner's alone.
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await chmod(dataDir, 0o700);
}
const client = createClient(authToken ? { url, authToken } : { url });
await migrate(drizzle(client), { migrationsFolder: join(root, 'drizzle') });
if (!process.env.DATABASE_URL?.trim()) await chmod(join(dataDir, 'kerstactie.db'), 0o600);

const started = performance.now();
if (clubId !== 1) {
  // Another club than the first: made here when it is new, reached on its own host.
  const host = args.host ?? `club${clubId}.bench.test`;
  await client.batch(
    [
      {
        sql: "INSERT INTO clubs (id, slug, name, status, created_at) VALUES (?, ?, ?, 'active', ?) ON CONFLICT (id) DO NOTHING",
        args: [clubId, `demo-${clubId}`, `Democlub ${clubId}`, new Date(now).toISOString()],
      },
      { sql: 'INSERT INTO club_hosts (host, club_id, position) VALUES (?, ?, 0) ON CONFLICT (host) DO NOTHING', args: [host, clubId] },
    ],
    'write',
  );
}
const existing = Number((await client.execute({ sql: 'SELECT count(*) AS n FROM orders WHERE club_id = ?', args: [clubId] })).rows[0].n);
if (existing > 0 && !args.force) {
  client.close();
  fail(`${url} already holds ${existing.toLocaleString('nl-NL')} orders; add --force to add the demo orders to them.`);
}

// What an invoice bills today: the settings when the app has run, else their seeded defaults.
const setting = async (key) => {
  const row = (await client.execute({ sql: 'SELECT value FROM settings WHERE club_id = ? AND key = ?', args: [clubId, key] })).rows[0];
  return row ? String(row.value) : BUILT_IN_SETTINGS.find((s) => s.key === key).value;
};
const unitPriceCents = Number(await setting('package_price')) * 100;
const split = parseVatSplit(await setting('vat_split'));
if (!split) fail('The vat_split setting is not a valid VAT split; fix it in the settings first.');
const termDays = Number(await setting('invoice_payment_term_days'));
const amountsByQuantity = new Map();
const amountsFor = (quantity) => {
  if (!amountsByQuantity.has(quantity)) amountsByQuantity.set(quantity, computeInvoiceAmounts(quantity, unitPriceCents, split));
  return amountsByQuantity.get(quantity);
};

// The campaign: 1 November to 24 December of this campaign year, up to now when the season is under way.
const year = campaignYear(new Date(now));
const seasonStart = Date.UTC(year, 10, 1, 7);
const seasonEnd = Date.UTC(year, 11, 24, 21);
const end = now > seasonStart + 7 * DAY ? Math.min(seasonEnd, now) : seasonEnd;
const iso = (ms) => new Date(ms).toISOString();

// Tablers: first and last names that the order form's gate can tell apart from each other and from those there are.
const tablerNames = (await client.execute({ sql: 'SELECT name FROM tablers WHERE club_id = ?', args: [clubId] })).rows.map((r) => String(r.name));
const newTablers = [];
for (let tries = 0; newTablers.length < tablerCount; tries++) {
  if (tries > tablerCount * 200) fail(`Could not find ${tablerCount} tabler names that the gate can tell apart; ask for fewer.`);
  const { first, surname } = personName();
  const name = `${first} ${surname}`;
  if (tablerNames.some((other) => namesMatch(name, other))) continue;
  tablerNames.push(name);
  newTablers.push(name);
}
// Everything in one transaction: all of it or nothing.
const tx = await client.transaction('write');
const stamp = iso(seasonStart);
if (newTablers.length) {
  await tx.execute({
    sql: `INSERT INTO tablers (club_id, name, search_name, created_at, updated_at) VALUES ${newTablers.map(() => '(?, ?, ?, ?, ?)').join(', ')}`,
    args: newTablers.flatMap((name) => [clubId, name, tablerSearchName(name), stamp, stamp]),
  });
}
const tablerIds = (await tx.execute({ sql: 'SELECT id FROM tablers WHERE club_id = ?', args: [clubId] })).rows.map((r) => Number(r.id));
// Some members sell far more than others.
const tablerWeights = tablerIds.map((id) => [id, 1 + random() * 4]);

// The orders, oldest first so that references and ids follow the order dates.
const sequenceValue = async (name) =>
  Number(
    (await tx.execute({ sql: 'SELECT value FROM sequences WHERE club_id = ? AND name = ? AND year = ?', args: [clubId, name, year] })).rows[0]?.value ?? 0,
  );
const firstReference = (await sequenceValue('order')) + 1;
const createdTimes = Array.from({ length: orderCount }, () => seasonStart + Math.floor(random() * (end - seasonStart))).sort((a, b) => a - b);
const orders = createdTimes.map((created, i) => {
  const person = personName();
  const business = chance(0.03);
  // Without a first name the tussenvoegsel takes a capital: 'Bakkerij Van der Meer'.
  const trade = `${pick(['Bakkerij', 'Garage', 'Kapsalon', 'Installatiebedrijf', 'Zeilmakerij'])} ${person.surname[0].toUpperCase()}${person.surname.slice(1)}`;
  const name = business ? trade : `${person.first} ${person.surname}`;
  const amount = weighted([
    [1, 45],
    [2, 25],
    [3, 10],
    [4, 5],
    [5, 5],
    [between(6, 10), 10],
  ]);
  const email = `${business ? 'info' : `${slug(person.first)}.${slug(person.surname)}`}${chance(0.3) ? between(1, 99) : ''}@${pick(MAIL_DOMAINS)}`;
  const order = {
    reference: `KP-${year}-${String(firstReference + i).padStart(4, '0')}`,
    tablerId: tablerIds.length && !chance(0.01) ? weighted(tablerWeights) : null,
    name,
    email,
    phone: phone(),
    address: `${pick(STREETS)} ${between(1, 180)}${chance(0.1) ? pick(['a', 'b', '-1', '-2']) : ''}`,
    postalCode: `${pick(['8861', '8862'])} ${pick(POSTAL_LETTERS)}${pick(POSTAL_LETTERS)}`,
    city: 'Harlingen',
    amount,
    notes: chance(0.15) ? pick(NOTES) : null,
    // A business has a KvK number, and every other one a VAT id too (docs/decisions/078); made from the index, so the
    // random choices of every other field stay as they were.
    customerKvkNumber: business ? String(60000000 + ((i * 7919) % 10000000)) : null,
    customerVatId: business && i % 2 === 0 ? `NL${String(800000000 + i).padStart(9, '0')}B01` : null,
    paid: false,
    paidAt: null,
    invoiceSent: false,
    invoiceNumber: null,
    invoiceDate: null,
    invoiceTotalCents: null,
    invoiceAmounts: null,
    cancelled: false,
    creditNoteNumber: null,
    creditNoteDate: null,
    remindersSent: 0,
    lastReminderAt: null,
    delivered: false,
    deliveredAt: null,
    createdAt: created,
    updatedAt: created,
  };
  // Most orders are invoiced within a few days; of those most are paid, some reminded, a few credited.
  // What would happen after today has not happened yet: recent invoices are mostly still open.
  const invoiced = created + between(1, 72) * 60 * 60 * 1000;
  if (invoiced <= end && chance(0.82)) {
    const amounts = amountsFor(amount);
    Object.assign(order, {
      invoiceDate: invoiced,
      invoiceSent: true,
      invoiceTotalCents: amounts.totalCents,
      invoiceAmounts: JSON.stringify(amounts),
      updatedAt: invoiced,
    });
    const credited = invoiced + between(1, 10) * DAY;
    const paid = invoiced + Math.floor(random() * 20 * DAY);
    const reminded = invoiced + (termDays + between(1, 3)) * DAY;
    if (chance(0.03) && credited <= end) Object.assign(order, { cancelled: true, creditNoteDate: credited });
    else if (chance(0.75) && paid <= end) order.paidAt = paid;
    else if (chance(0.6) && reminded <= end) Object.assign(order, { remindersSent: 1, lastReminderAt: reminded });
  } else {
    // Paid at the door, before any invoice.
    const paid = created + Math.floor(random() * 2 * DAY);
    if (chance(0.1) && paid <= end) order.paidAt = paid;
  }
  order.paid = order.paidAt !== null;
  const delivered = Math.max(created, order.paidAt ?? created) + between(1, 6) * DAY;
  if (!order.cancelled && (order.paid ? chance(0.45) : chance(0.05)) && delivered <= end) order.deliveredAt = delivered;
  order.delivered = order.deliveredAt !== null;
  return order;
});

// Invoice and credit note numbers: one gap-free series, in the order they were issued.
const firstInvoiceNumber = (await sequenceValue('invoice')) + 1;
const issued = orders.flatMap((o) => [
  ...(o.invoiceDate !== null ? [{ at: o.invoiceDate, order: o, field: 'invoiceNumber' }] : []),
  ...(o.creditNoteDate !== null ? [{ at: o.creditNoteDate, order: o, field: 'creditNoteNumber' }] : []),
]);
issued.sort((a, b) => a.at - b.at || (a.field === 'invoiceNumber' ? -1 : 1));
issued.forEach((event, i) => {
  event.order[event.field] = `F${year}-${String(firstInvoiceNumber + i).padStart(4, '0')}`;
});

const COLUMNS = [
  ['club_id', () => clubId],
  ['reference', (o) => o.reference],
  ['tabler_id', (o) => o.tablerId],
  ['name', (o) => o.name],
  ['email', (o) => o.email],
  ['phone', (o) => o.phone],
  ['address', (o) => o.address],
  ['postal_code', (o) => o.postalCode],
  ['city', (o) => o.city],
  ['amount', (o) => o.amount],
  ['notes', (o) => o.notes],
  ['customer_kvk_number', (o) => o.customerKvkNumber],
  ['customer_vat_id', (o) => o.customerVatId],
  ['paid', (o) => (o.paid ? 1 : 0)],
  ['invoice_sent', (o) => (o.invoiceSent ? 1 : 0)],
  ['invoice_number', (o) => o.invoiceNumber],
  ['invoice_date', (o) => (o.invoiceDate === null ? null : iso(o.invoiceDate))],
  ['invoice_total_cents', (o) => o.invoiceTotalCents],
  ['invoice_amounts', (o) => o.invoiceAmounts],
  ['paid_at', (o) => (o.paidAt === null ? null : iso(o.paidAt))],
  // The demo has no bank statements or online payments: a paid order was marked paid by hand, as the journal books it.
  ['payment_method', (o) => (o.paid ? 'manual' : null)],
  ['cancelled', (o) => (o.cancelled ? 1 : 0)],
  ['credit_note_number', (o) => o.creditNoteNumber],
  ['credit_note_date', (o) => (o.creditNoteDate === null ? null : iso(o.creditNoteDate))],
  ['reminders_sent', (o) => o.remindersSent],
  ['last_reminder_at', (o) => (o.lastReminderAt === null ? null : iso(o.lastReminderAt))],
  ['delivered', (o) => (o.delivered ? 1 : 0)],
  ['delivered_at', (o) => (o.deliveredAt === null ? null : iso(o.deliveredAt))],
  ['search_text', (o) => orderSearchText(o)],
  ['created_at', (o) => iso(o.createdAt)],
  ['updated_at', (o) => iso(Math.max(o.updatedAt, o.paidAt ?? 0, o.creditNoteDate ?? 0, o.lastReminderAt ?? 0, o.deliveredAt ?? 0))],
];
// Each statement takes its rows as one JSON text: parsing the statement and binding its values cost next
// to nothing, so 50,000 orders go in within seconds.
const insertOrders = `INSERT INTO orders (${COLUMNS.map(([column]) => column).join(', ')})
  SELECT ${COLUMNS.map((_, i) => `json_extract(value, '$[${i}]')`).join(', ')} FROM json_each(?)`;
for (let i = 0; i < orders.length; i += ROWS_PER_INSERT) {
  const rows = orders.slice(i, i + ROWS_PER_INSERT).map((o) => COLUMNS.map(([, value]) => value(o)));
  await tx.execute({ sql: insertOrders, args: [JSON.stringify(rows)] });
}
const setSequence = (name, value) =>
  tx.execute({
    sql: 'INSERT INTO sequences (club_id, name, year, value) VALUES (?, ?, ?, ?) ON CONFLICT (club_id, name, year) DO UPDATE SET value = excluded.value',
    args: [clubId, name, year, value],
  });
if (orders.length) await setSequence('order', firstReference + orders.length - 1);
if (issued.length) await setSequence('invoice', firstInvoiceNumber + issued.length - 1);
await tx.commit();
// The search index took the rows in many small segments; a query reads every segment, so one merged
// segment makes each search about a third cheaper (50,000 orders: 9 segments, about half a second to merge).
await client.execute("INSERT INTO orders_fts(orders_fts) VALUES ('optimize')");
client.close();

const nl = (n) => n.toLocaleString('nl-NL');
const tally = (test) => orders.filter(test).length;
const day = (ms) => new Intl.DateTimeFormat('nl-NL', { timeZone: 'Europe/Amsterdam', day: 'numeric', month: 'long' }).format(ms);
const credits = tally((o) => o.cancelled);
console.log(
  `Demo data added to ${url.replace(/\?.*$/, '')}${clubId === 1 ? '' : ` (club ${clubId})`} in ${((performance.now() - started) / 1000).toFixed(1)} s (seed ${seed}):`,
);
console.log(`  ${nl(newTablers.length)} tablers (${nl(tablerIds.length)} in all)`);
if (orders.length) {
  console.log(
    `  ${nl(orders.length)} orders, ${orders[0].reference} to ${orders.at(-1).reference}, ordered ${day(orders[0].createdAt)} to ${day(orders.at(-1).createdAt)} ${year}`,
  );
  console.log(
    `  ${nl(issued.length - credits)} invoices and ${nl(credits)} credit notes` +
      (issued.length
        ? `, F${year}-${String(firstInvoiceNumber).padStart(4, '0')} to ${`F${year}-${String(firstInvoiceNumber + issued.length - 1).padStart(4, '0')}`}`
        : ''),
  );
  console.log(
    `  ${nl(tally((o) => o.paid))} paid, ${nl(tally((o) => o.invoiceNumber && !o.paid && !o.cancelled))} invoiced and open (${nl(tally((o) => o.remindersSent > 0))} reminded), ${nl(tally((o) => !o.invoiceNumber && !o.paid))} not yet invoiced, ${nl(credits)} credited, ${nl(tally((o) => o.delivered))} delivered`,
  );
}
