import { sql } from 'drizzle-orm';
import { check, index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

// spec §3 Tabler: a club member; the name doubles as the order form's gate.
export const tablers = sqliteTable(
  'tablers',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    name: text('name').notNull(),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [uniqueIndex('tablers_name_nocase_unique').on(sql`lower(${t.name})`)],
);

// spec §3 Order. DESIGN §3: reference KP-<year>-<nnnn> and invoice number F<year>-<nnnn> are unique and
// gap-free (drawn from `sequences`); deleting a tabler keeps its orders (tabler_id becomes null).
export const orders = sqliteTable(
  'orders',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    reference: text('reference').notNull().unique(),
    tablerId: integer('tabler_id').references(() => tablers.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    email: text('email').notNull(),
    phone: text('phone').notNull().default(''),
    address: text('address').notNull().default(''),
    postalCode: text('postal_code').notNull().default(''),
    city: text('city').notNull().default(''),
    amount: integer('amount').notNull().default(1),
    notes: text('notes'),
    paid: integer('paid', { mode: 'boolean' }).notNull().default(false),
    invoiceSent: integer('invoice_sent', { mode: 'boolean' }).notNull().default(false),
    invoiceNumber: text('invoice_number').unique(),
    invoiceDate: text('invoice_date'),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [
    index('orders_tabler_idx').on(t.tablerId),
    index('orders_created_idx').on(t.createdAt),
    check('orders_amount_check', sql`${t.amount} >= 1`),
  ],
);

// Gap-free counters per name and year, e.g. ('order', 2026) and ('invoice', 2026).
export const sequences = sqliteTable(
  'sequences',
  {
    name: text('name').notNull(),
    year: integer('year').notNull(),
    value: integer('value').notNull().default(0),
  },
  (t) => [uniqueIndex('sequences_name_year_unique').on(t.name, t.year)],
);

// spec §3 Contact message; DESIGN §3: stored before it is mailed.
export const contactMessages = sqliteTable('contact_messages', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  name: text('name').notNull(),
  email: text('email').notNull(),
  subject: text('subject').notNull(),
  message: text('message').notNull(),
  createdAt: text('created_at').notNull(),
});
