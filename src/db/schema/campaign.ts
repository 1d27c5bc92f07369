import { sql } from 'drizzle-orm';
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { clubIdColumn } from './clubs';

// docs/product.md §3 Tabler: a club member; the name doubles as the order form's gate.
export const tablers = sqliteTable(
  'tablers',
  {
    clubId: clubIdColumn(),
    id: integer('id').primaryKey({ autoIncrement: true }),
    name: text('name').notNull(),
    // docs/decisions/034: the name folded for order search (db/search-text.ts); null until filled.
    searchName: text('search_name'),
    // docs/decisions/070: the random part of the tabler's own order link; a new one stops the old link.
    sellerNonce: text('seller_nonce'),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [uniqueIndex('tablers_name_nocase_unique').on(t.clubId, sql`lower(${t.name})`)],
);

// docs/product.md §3 Order. docs/architecture.md §3: reference KP-<year>-<nnnn> and invoice number F<year>-<nnnn> are unique and
// gap-free (drawn from `sequences`); deleting a tabler keeps its orders (tabler_id becomes null).
export const orders = sqliteTable(
  'orders',
  {
    clubId: clubIdColumn(),
    id: integer('id').primaryKey({ autoIncrement: true }),
    reference: text('reference').notNull(),
    tablerId: integer('tabler_id').references(() => tablers.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    email: text('email').notNull(),
    phone: text('phone').notNull().default(''),
    address: text('address').notNull().default(''),
    postalCode: text('postal_code').notNull().default(''),
    city: text('city').notNull().default(''),
    amount: integer('amount').notNull().default(1),
    notes: text('notes'),
    // docs/decisions/078: a business customer's KvK number and VAT id (compacted, checked); null for a private one.
    customerKvkNumber: text('customer_kvk_number'),
    customerVatId: text('customer_vat_id'),
    paid: integer('paid', { mode: 'boolean' }).notNull().default(false),
    invoiceSent: integer('invoice_sent', { mode: 'boolean' }).notNull().default(false),
    invoiceNumber: text('invoice_number'),
    invoiceDate: text('invoice_date'),
    // docs/decisions/018: the issued invoice's total incl. VAT, fixed at the first send (settings may change later).
    invoiceTotalCents: integer('invoice_total_cents'),
    // The issued invoice's sums (InvoiceAmounts as JSON), so a credit note negates exactly what was billed.
    invoiceAmounts: text('invoice_amounts'),
    // The issued sums' net amount, copied from them by triggers (drizzle/0016), so the totals group and sum on an
    // integer in their narrow index instead of the JSON text (docs/decisions/075).
    invoiceNetCents: integer('invoice_net_cents'),
    // docs/decisions/025: when the money came in (the bank's booking date when a statement import paid it).
    paidAt: text('paid_at'),
    // The part-payments booked on the order from the bank so far, in cents (docs/decisions/057): the order
    // turns paid when they reach its total incl. VAT. Full payments leave it as it is.
    paidCents: integer('paid_cents').notNull().default(0),
    // docs/decisions/020: a credit note (same number series as invoices) cancels the invoice; the order leaves the totals.
    cancelled: integer('cancelled', { mode: 'boolean' }).notNull().default(false),
    creditNoteNumber: text('credit_note_number'),
    creditNoteDate: text('credit_note_date'),
    // The stored files of the issued documents, each under a key that never repeats (docs/decisions/049): a
    // document is reached only through its row, so a restored older database never serves a newer file.
    invoiceFileKey: text('invoice_file_key'),
    invoiceQrKey: text('invoice_qr_key'),
    creditNoteFileKey: text('credit_note_file_key'),
    // The same documents as UBL (docs/decisions/078): made once, then mailed and downloaded byte for byte.
    invoiceUblKey: text('invoice_ubl_key'),
    creditNoteUblKey: text('credit_note_ubl_key'),
    remindersSent: integer('reminders_sent').notNull().default(0),
    lastReminderAt: text('last_reminder_at'),
    delivered: integer('delivered', { mode: 'boolean' }).notNull().default(false),
    deliveredAt: text('delivered_at'),
    // How the order came to be paid (docs/decisions/066): 'manual' by hand or in bulk, 'bank' by a statement
    // import, 'online' by a Mollie payment; null while unpaid.
    paymentMethod: text('payment_method', { enum: ['manual', 'bank', 'online'] }),
    // What was refunded through Mollie so far, in cents: the sum of its online payments' refunds, rewritten
    // from them at every reconcile (docs/decisions/066).
    refundedCents: integer('refunded_cents').notNull().default(0),
    // docs/decisions/034: the order's fields and numbers folded for search (db/search-text.ts), written
    // with every change of them. Null until filled: rows older than the column get it at start-up.
    searchText: text('search_text'),
    // docs/decisions/074: the tabler's folded name (tablers.search_name), the key of the sort by tabler, so that sort
    // has an index of orders like the others. Kept by triggers (migration 0015) on every write of an order's
    // tabler and of a tabler's name; never written by the services.
    tablerSort: text('tabler_sort'),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [
    // docs/decisions/071: a club's numbers are unique within the club; every club's series starts at 0001.
    uniqueIndex('orders_reference_unique').on(t.clubId, t.reference),
    uniqueIndex('orders_invoice_number_unique').on(t.clubId, t.invoiceNumber),
    uniqueIndex('orders_credit_note_number_unique').on(t.clubId, t.creditNoteNumber),
    index('orders_tabler_idx').on(t.tablerId),
    // docs/decisions/074: the two sorts a treasurer uses most (newest first, by name) hold the id that breaks their
    // ties and the flags the page filters on (and the invoice date for 'overdue'), so a filtered or deep page
    // of them is read from the index alone, never from the orders' rows. Newest first unfiltered, the narrow
    // index is skipped through instead (a deep page: 4 -> 1.2 ms at 50,000 orders).
    index('orders_created_idx').on(t.clubId, t.createdAt, t.id),
    index('orders_created_filters_idx').on(t.clubId, t.createdAt, t.id, t.paid, t.invoiceSent, t.cancelled, t.delivered, t.invoiceDate),
    // 'Achterstallig' and the automatic reminders: invoiced, unpaid, not credited, before a date (docs/decisions/074).
    index('orders_invoice_date_idx').on(t.clubId, t.paid, t.cancelled, t.invoiceDate),
    // Holds only the rows still to be filled, so checking at every start that there are none is one lookup.
    index('orders_search_pending_idx').on(t.id).where(sql`${t.searchText} IS NULL`),
    // Sorting by name walks this index: the text starts with the folded name, so 'Ëlsa' sorts with 'Elsa'.
    index('orders_search_text_idx').on(t.clubId, t.searchText, t.id, t.paid, t.invoiceSent, t.cancelled, t.delivered),
    // docs/decisions/072: each sort of the orders page has its index (club, key, and the id that breaks ties),
    // so a page of it is read in order and a deep page skips narrow entries. (club, paid) is also the
    // narrowest index of a club's orders: the page's count of them reads it.
    index('orders_amount_idx').on(t.clubId, t.amount),
    index('orders_paid_idx').on(t.clubId, t.paid),
    // A search tests each of the club's orders against the trigram matches and the matching tablers: this
    // index holds both (the id and tabler_id), so no order's row is read for it.
    index('orders_club_tabler_idx').on(t.clubId, t.tablerId),
    index('orders_tabler_sort_idx').on(t.clubId, t.tablerSort, t.id),
    // Every column GET /orders/totals reads, so its five aggregates scan this narrow index instead of the
    // wide rows (docs/decisions/034; 350 ms -> 136 ms at 50,000 orders; the per-tabler count 161 ms -> 26 ms).
    // The sums and leaderboard group on its first columns after the club and `cancelled`, in this order, so SQLite
    // aggregates as it walks the index instead of sorting (docs/decisions/075).
    index('orders_totals_idx').on(
      t.clubId,
      t.cancelled,
      t.tablerId,
      t.amount,
      t.paid,
      t.invoiceTotalCents,
      t.invoiceNetCents,
      t.invoiceSent,
      t.createdAt,
      t.invoiceDate,
      t.paidAt,
    ),
    check('orders_amount_check', sql`${t.amount} >= 1`),
  ],
);

/**
 * docs/decisions/074: how many orders a club has with each combination of the four flags the orders page
 * filters on, kept by triggers on orders (migration 0015) in the statement that changes them, so a page's
 * count is a sum of at most 16 rows instead of a walk over the club's orders. Derived data: not in backups,
 * rebuilt after a restore.
 */
export const orderCounts = sqliteTable(
  'order_counts',
  {
    clubId: clubIdColumn(),
    paid: integer('paid', { mode: 'boolean' }).notNull(),
    invoiceSent: integer('invoice_sent', { mode: 'boolean' }).notNull(),
    cancelled: integer('cancelled', { mode: 'boolean' }).notNull(),
    delivered: integer('delivered', { mode: 'boolean' }).notNull(),
    orders: integer('orders').notNull(),
  },
  (t) => [primaryKey({ columns: [t.clubId, t.paid, t.invoiceSent, t.cancelled, t.delivered] })],
);

// Gap-free counters per name and year, e.g. ('order', 2026) and ('invoice', 2026).
export const sequences = sqliteTable(
  'sequences',
  {
    clubId: clubIdColumn(),
    name: text('name').notNull(),
    year: integer('year').notNull(),
    value: integer('value').notNull().default(0),
  },
  (t) => [uniqueIndex('sequences_name_year_unique').on(t.clubId, t.name, t.year)],
);

// docs/product.md §3 Contact message; docs/architecture.md §3: stored before it is mailed.
export const contactMessages = sqliteTable(
  'contact_messages',
  {
    clubId: clubIdColumn(),
    id: integer('id').primaryKey({ autoIncrement: true }),
    name: text('name').notNull(),
    email: text('email').notNull(),
    subject: text('subject').notNull(),
    message: text('message').notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('contact_messages_club_idx').on(t.clubId, t.createdAt)],
);

// docs/decisions/025: a bank statement (CAMT.053) uploaded for matching; nothing is paid until it is confirmed.
export const paymentImports = sqliteTable(
  'payment_imports',
  {
    clubId: clubIdColumn(),
    id: integer('id').primaryKey({ autoIncrement: true }),
    filename: text('filename').notNull(),
    // The admin who uploaded it (no foreign key: the record outlives the account, like the audit log).
    createdBy: integer('created_by'),
    createdAt: text('created_at').notNull(),
    confirmedAt: text('confirmed_at'),
    // What the file says about itself (docs/decisions/057): the statements' ids, and the period they cover
    // (YYYY-MM-DD); null when the bank left them out.
    statementId: text('statement_id'),
    periodFrom: text('period_from'),
    periodTo: text('period_to'),
    // The credits the preview left out (another currency, no amount or date), as JSON [{entry_ref,booked_at,reason}].
    skipped: text('skipped').notNull().default('[]'),
  },
  (t) => [index('payment_imports_club_idx').on(t.clubId, t.createdAt)],
);

// One incoming credit transfer of an imported statement, with what it matched. `entryKey` identifies the
// bank's booking across imports (the bank's own reference, or a digest of its fields); the partial unique
// index lets any number of previews hold the same entry but only one of them pay an order with it.
export const bankEntries = sqliteTable(
  'bank_entries',
  {
    clubId: clubIdColumn(),
    id: integer('id').primaryKey({ autoIncrement: true }),
    importId: integer('import_id')
      .notNull()
      .references(() => paymentImports.id, { onDelete: 'cascade' }),
    entryKey: text('entry_key').notNull(),
    entryRef: text('entry_ref').notNull(),
    bookedAt: text('booked_at').notNull(),
    amountCents: integer('amount_cents').notNull(),
    counterparty: text('counterparty').notNull().default(''),
    remittance: text('remittance').notNull().default(''),
    status: text('status', { enum: ['matched', 'amount_mismatch', 'unmatched', 'already_imported'] }).notNull(),
    orderId: integer('order_id').references(() => orders.id, { onDelete: 'set null' }),
    // Set when confirming marked the order paid with this entry.
    appliedAt: text('applied_at'),
    // docs/decisions/057: the booking paid its order in full (not only a part of it), so another booking for
    // that order is a second payment.
    settled: integer('settled', { mode: 'boolean' }).notNull().default(false),
    // docs/decisions/057 follow-ups: set when 'Verwerken' left this credit for the treasurer (an amount that
    // differs, no order found, or an order no longer payable); open until `resolution` is set.
    followUpAt: text('follow_up_at'),
    resolution: text('resolution', { enum: ['part_payment', 'full_payment', 'dismissed'] }),
    resolvedAt: text('resolved_at'),
    // The user who resolved it (no foreign key, as created_by of the import).
    resolvedBy: integer('resolved_by'),
    // Why a follow-up was dismissed.
    resolutionNote: text('resolution_note'),
  },
  (t) => [
    index('bank_entries_import_idx').on(t.importId),
    index('bank_entries_order_idx').on(t.orderId),
    uniqueIndex('bank_entries_applied_unique').on(t.clubId, t.entryKey).where(sql`${t.appliedAt} IS NOT NULL`),
    // One follow-up per bank booking, however many times its statement is imported and processed.
    uniqueIndex('bank_entries_follow_up_unique').on(t.clubId, t.entryKey).where(sql`${t.followUpAt} IS NOT NULL`),
    index('bank_entries_open_follow_up_idx').on(t.clubId, t.followUpAt).where(sql`${t.followUpAt} IS NOT NULL AND ${t.resolution} IS NULL`),
    check('bank_entries_status_check', sql`${t.status} IN ('matched', 'amount_mismatch', 'unmatched', 'already_imported')`),
  ],
);

// docs/decisions/066: the links of a customer's order page /bestelling/<token>. Only the SHA-256 of a token is
// kept; every mail that carries the link gets a token of its own, so no stored value ever gives one back.
/**
 * docs/decisions/068: an order made under an Idempotency-Key, so the same key with the same request answers
 * the same order again instead of making another. The key is unique: two requests racing with one key make
 * one order, the loser's batch failing on this row. `requestHash` is the SHA-256 of the request as validated.
 */
export const idempotencyKeys = sqliteTable(
  'idempotency_keys',
  {
    clubId: clubIdColumn(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    orderId: integer('order_id').references(() => orders.id, { onDelete: 'set null' }),
    orderReference: text('order_reference').notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.clubId, t.key] }), index('idempotency_keys_created_idx').on(t.clubId, t.createdAt)],
);

export const orderLinks = sqliteTable(
  'order_links',
  {
    clubId: clubIdColumn(),
    tokenHash: text('token_hash').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('order_links_order_idx').on(t.orderId)],
);

/**
 * docs/decisions/066: an online payment at Mollie as the server last saw it. `providerId` (Mollie's tr_…) is
 * unique, so a replayed or concurrent webhook finds the one row; its amounts are Mollie's totals, compared and
 * overwritten, never added to. `applied`: this payment is what turned the order paid (a chargeback of it
 * undoes that); `doublePayment`: the order was already paid (or credited) when it came in, so it is to refund.
 */
export const onlinePayments = sqliteTable(
  'online_payments',
  {
    clubId: clubIdColumn(),
    id: integer('id').primaryKey({ autoIncrement: true }),
    providerId: text('provider_id').notNull(),
    // No cascade: the record of money received outlives an order deleted before it was invoiced.
    orderId: integer('order_id').references(() => orders.id, { onDelete: 'set null' }),
    reference: text('reference').notNull(),
    status: text('status').notNull(),
    amountCents: integer('amount_cents').notNull(),
    refundedCents: integer('refunded_cents').notNull().default(0),
    chargedBackCents: integer('charged_back_cents').notNull().default(0),
    applied: integer('applied', { mode: 'boolean' }).notNull().default(false),
    doublePayment: integer('double_payment', { mode: 'boolean' }).notNull().default(false),
    checkoutUrl: text('checkout_url'),
    expiresAt: text('expires_at'),
    paidAt: text('paid_at'),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('online_payments_provider_id_unique').on(t.clubId, t.providerId),
    index('online_payments_order_idx').on(t.orderId),
    index('online_payments_created_idx').on(t.clubId, t.createdAt),
  ],
);

/**
 * docs/decisions/076: each growth of an online payment's refunded or charged-back total, with the moment the server
 * saw it, for the accountant's journal (the totals on online_payments keep no dates). Written only by triggers on
 * online_payments, in the statement that grows the total, so no path that changes it can leave one out.
 */
export const paymentReversals = sqliteTable(
  'payment_reversals',
  {
    clubId: clubIdColumn(),
    id: integer('id').primaryKey({ autoIncrement: true }),
    onlinePaymentId: integer('online_payment_id')
      .notNull()
      .references(() => onlinePayments.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['refund', 'chargeback'] }).notNull(),
    amountCents: integer('amount_cents').notNull(),
    bookedAt: text('booked_at').notNull(),
  },
  (t) => [index('payment_reversals_booked_idx').on(t.clubId, t.bookedAt), check('payment_reversals_kind_check', sql`${t.kind} IN ('refund', 'chargeback')`)],
);
