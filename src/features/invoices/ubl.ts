import { dutchDate } from '../../core/calendar';
import { normaliseIban } from '../settings/setting-rules';
import type { InvoiceAmounts } from './invoice-amounts';
import type { InvoiceDocument } from './invoice-pdf';

/**
 * An issued invoice or credit note as UBL 2.1 to the Dutch CIUS (NLCIUS, on EN 16931), for an accounting package to
 * read instead of retyping the PDF (DESIGN §6 "The books and safety", docs/decisions/077). It is made from the same
 * document the PDF is drawn from, so it carries the same number, dates, VAT and totals. A credit note's amounts are
 * positive: the document type (CreditNote, 381) carries the sign. Elements are written in the order the UBL 2.1
 * schemas require.
 */

export const NLCIUS_CUSTOMIZATION = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:nen.nl:nlcius:v1.0';
const CBC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2';
const CAC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2';
/** EAS scheme 0106: the Dutch Chamber of Commerce (KvK) number. */
const KVK_SCHEME = '0106';

const escapeXml = (text: string) => text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);

/**
 * One element, with escaped text or with child elements (already written) inside; left out entirely (null) when it
 * has no text or no children, as an empty optional field is.
 */
function el(name: string, content: string | number | null | undefined | (string | null)[], attributes: Record<string, string> = {}): string | null {
  const inner = Array.isArray(content)
    ? content.filter((child) => child !== null).join('')
    : content === null || content === undefined
      ? ''
      : escapeXml(String(content));
  if (inner === '') return null;
  const attrs = Object.entries(attributes)
    .map(([key, value]) => ` ${key}="${escapeXml(value)}"`)
    .join('');
  return `<${name}${attrs}>${inner}</${name}>`;
}

const cbc = (name: string, content: string | number | null | undefined, attributes?: Record<string, string>) => el(`cbc:${name}`, content, attributes);
const cac = (name: string, ...children: (string | null)[]) => el(`cac:${name}`, children);

/** Euros with two decimals, a dot as the decimal sign, as UBL's amounts are written. */
const money = (cents: number) => `${cents < 0 ? '-' : ''}${Math.trunc(Math.abs(cents) / 100)}.${String(Math.abs(cents) % 100).padStart(2, '0')}`;
const amount = (name: string, cents: number) => cbc(name, money(cents), { currencyID: 'EUR' });
/** A unit price may need more than cents (a VAT part of an odd package count): up to four decimals, no trailing zeros. */
const unitPrice = (cents: number, quantity: number) => {
  const euros = (cents / quantity / 100).toFixed(4).replace(/0{1,2}$/, '');
  return cbc('PriceAmount', euros, { currencyID: 'EUR' });
};
const day = (date: Date) => dutchDate(date);

/** The club's address is one line of text ('Voorstraat 1, 8861 BK Harlingen'): split on the Dutch postcode where it has one. */
export function addressParts(address: string): { street: string; postalZone: string | null; city: string | null } {
  const match = /^(.*?)[,\s]+(\d{4}\s?[A-Za-z]{2})\s+(.+)$/.exec(address.trim());
  if (!match) return { street: address.trim(), postalZone: null, city: null };
  return { street: match[1]!.trim(), postalZone: match[2]!.toUpperCase().replace(/^(\d{4})\s?/, '$1 '), city: match[3]!.trim() };
}

/** The VAT category of a rate: S (standard and reduced rates), Z (zero rated). */
const taxCategory = (tag: 'TaxCategory' | 'ClassifiedTaxCategory', rate: number) =>
  cac(tag, cbc('ID', rate === 0 ? 'Z' : 'S'), cbc('Percent', rate), cac('TaxScheme', cbc('ID', 'VAT')));

/** A Dutch address: the parts it has, and the country. */
const postalAddress = (street: string, city: string | null, postalZone: string | null) =>
  cac('PostalAddress', cbc('StreetName', street), cbc('CityName', city), cbc('PostalZone', postalZone), cac('Country', cbc('IdentificationCode', 'NL')));

function supplier(document: InvoiceDocument): string | null {
  const { club } = document;
  const address = addressParts(club.address);
  return cac(
    'AccountingSupplierParty',
    cac(
      'Party',
      cbc('EndpointID', club.kvkNumber, { schemeID: KVK_SCHEME }),
      cac('PartyName', cbc('Name', club.name)),
      postalAddress(address.street, address.city, address.postalZone),
      cac('PartyTaxScheme', cbc('CompanyID', club.vatId.toUpperCase()), cac('TaxScheme', cbc('ID', 'VAT'))),
      cac('PartyLegalEntity', cbc('RegistrationName', club.name), cbc('CompanyID', club.kvkNumber, { schemeID: KVK_SCHEME })),
      cac('Contact', cbc('ElectronicMail', club.email)),
    ),
  );
}

function customer(document: InvoiceDocument): string | null {
  const { customer: buyer } = document;
  return cac(
    'AccountingCustomerParty',
    cac(
      'Party',
      cbc('EndpointID', buyer.email, { schemeID: 'EM' }),
      cac('PartyName', cbc('Name', buyer.name)),
      postalAddress(buyer.address, buyer.city, buyer.postalCode),
      // A business customer's VAT id (BT-48) and KvK number as its legal registration (BT-47), docs/decisions/078.
      buyer.vatId ? cac('PartyTaxScheme', cbc('CompanyID', buyer.vatId), cac('TaxScheme', cbc('ID', 'VAT'))) : null,
      cac('PartyLegalEntity', cbc('RegistrationName', buyer.name), cbc('CompanyID', buyer.kvkNumber, { schemeID: KVK_SCHEME })),
      cac('Contact', cbc('ElectronicMail', buyer.email)),
    ),
  );
}

function taxTotal(amounts: InvoiceAmounts): string | null {
  return cac(
    'TaxTotal',
    amount('TaxAmount', amounts.vatTotalCents),
    ...amounts.vat.map((line) =>
      cac('TaxSubtotal', amount('TaxableAmount', line.baseCents), amount('TaxAmount', line.vatCents), taxCategory('TaxCategory', line.rate)),
    ),
  );
}

function monetaryTotal(amounts: InvoiceAmounts): string | null {
  return cac(
    'LegalMonetaryTotal',
    amount('LineExtensionAmount', amounts.netCents),
    amount('TaxExclusiveAmount', amounts.netCents),
    amount('TaxInclusiveAmount', amounts.totalCents),
    amount('PayableAmount', amounts.totalCents),
  );
}

/** A line per VAT part of the package ('Kerstpakket – Levensmiddelen'), each with the package count. */
function lines(document: InvoiceDocument, tag: 'InvoiceLine' | 'CreditNoteLine', quantityTag: 'InvoicedQuantity' | 'CreditedQuantity'): (string | null)[] {
  const { amounts } = document;
  const single = amounts.parts.length === 1;
  return amounts.parts.map((part, index) =>
    cac(
      tag,
      cbc('ID', index + 1),
      cbc(quantityTag, amounts.quantity, { unitCode: 'C62' }),
      amount('LineExtensionAmount', part.baseCents),
      cac('Item', cbc('Name', single ? document.description : `${document.description} – ${part.label}`), taxCategory('ClassifiedTaxCategory', part.vat_rate)),
      cac('Price', unitPrice(part.baseCents, amounts.quantity)),
    ),
  );
}

const NAMESPACES = `xmlns:cac="${CAC}" xmlns:cbc="${CBC}"`;

/** The document as UBL 2.1 XML, UTF-8, to NLCIUS. */
export function renderUbl(document: InvoiceDocument): string {
  const head = [cbc('CustomizationID', NLCIUS_CUSTOMIZATION), cbc('ID', document.invoiceNumber), cbc('IssueDate', day(document.invoiceDate))];
  const delivery = document.supplyDate ? cac('Delivery', cbc('ActualDeliveryDate', day(document.supplyDate))) : null;
  let body: (string | null)[];
  let root: string;
  if (document.kind === 'credit_note') {
    root = `CreditNote xmlns="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2" ${NAMESPACES}`;
    body = [
      ...head,
      cbc('CreditNoteTypeCode', 381),
      cbc('DocumentCurrencyCode', 'EUR'),
      cbc('BuyerReference', document.orderReference),
      cac('OrderReference', cbc('ID', document.orderReference)),
      cac(
        'BillingReference',
        cac('InvoiceDocumentReference', cbc('ID', document.corrects.invoiceNumber), cbc('IssueDate', day(document.corrects.invoiceDate))),
      ),
      supplier(document),
      customer(document),
      delivery,
      taxTotal(document.amounts),
      monetaryTotal(document.amounts),
      ...lines(document, 'CreditNoteLine', 'CreditedQuantity'),
    ];
  } else {
    root = `Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" ${NAMESPACES}`;
    body = [
      ...head,
      cbc('DueDate', day(document.dueDate)),
      cbc('InvoiceTypeCode', 380),
      cbc('DocumentCurrencyCode', 'EUR'),
      cbc('BuyerReference', document.orderReference),
      cac('OrderReference', cbc('ID', document.orderReference)),
      supplier(document),
      customer(document),
      delivery,
      // 58: SEPA credit transfer, with the invoice number as the payment reference, as the PDF asks.
      cac(
        'PaymentMeans',
        cbc('PaymentMeansCode', 58),
        cbc('PaymentID', document.invoiceNumber),
        cac('PayeeFinancialAccount', cbc('ID', normaliseIban(document.club.iban)), cbc('Name', document.club.name)),
      ),
      cac('PaymentTerms', cbc('Note', `Te betalen binnen ${document.paymentTermDays} dagen onder vermelding van ${document.invoiceNumber}.`)),
      taxTotal(document.amounts),
      monetaryTotal(document.amounts),
      ...lines(document, 'InvoiceLine', 'InvoicedQuantity'),
    ];
  }
  const name = root.split(' ')[0]!;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<${root}>${body.filter((part) => part !== null).join('')}</${name}>\n`;
}
