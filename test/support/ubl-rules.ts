import { XMLParser, XMLValidator } from 'fast-xml-parser';

/**
 * A checker for the business rules of EN 16931 and the Dutch CIUS (NLCIUS) that apply to what our invoices and credit
 * notes can hold (docs/decisions/077). The rules' official validators (Schematron run by an XSLT 2 processor, with the
 * OASIS schemas) are not available on this machine, so the rules are written out here from their descriptions, each
 * under its EN 16931 rule id; the Dutch rules, whose numbering was not at hand, under 'NL' and what they check. It
 * returns the rules a document breaks, with what is wrong: an empty list is a pass.
 */

/** Elements as arrays always, so a rule reads one or several the same way; attributes under '@_'. */
const parser = new XMLParser({ ignoreAttributes: false, parseTagValue: false, isArray: (_name, _path, _leaf, isAttribute) => !isAttribute });

export type Tree = Record<string, unknown>;

export const at = (node: unknown, ...path: string[]): Tree[] =>
  path.reduce<Tree[]>((nodes, name) => nodes.flatMap((n) => (n[name] as Tree[] | undefined) ?? []), [node as Tree]);

export const text = (node: unknown, ...path: string[]) => {
  const [found] = at(node, ...path);
  return typeof found === 'object' && found !== null ? String(found['#text'] ?? '') : String(found ?? '');
};

const attribute = (node: unknown, name: string, ...path: string[]) => String(at(node, ...path)[0]?.[`@_${name}`] ?? '');
const cents = (value: string) => Math.round(Number(value) * 100);
const isAmount = (value: string) => /^-?\d+(\.\d{1,2})?$/.test(value);

/** The document's root element (Invoice or CreditNote), parsed; throws on XML that is not well-formed. */
export function parseUbl(xml: string): { kind: 'Invoice' | 'CreditNote'; document: Tree } {
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw new Error(`Not well-formed XML: ${JSON.stringify(valid.err)}`);
  const parsed = parser.parse(xml) as Record<string, Tree[]>;
  if (parsed.Invoice) return { kind: 'Invoice', document: parsed.Invoice[0]! };
  if (parsed.CreditNote) return { kind: 'CreditNote', document: parsed.CreditNote[0]! };
  throw new Error(`Neither an Invoice nor a CreditNote: ${Object.keys(parsed).join(', ')}`);
}

/** The rules a document breaks, as 'RULE-ID: what is wrong'. */
export function ublRuleProblems(xml: string): string[] {
  const { kind, document: d } = parseUbl(xml);
  const problems: string[] = [];
  const must = (rule: string, holds: boolean, what: string) => {
    if (!holds) problems.push(`${rule}: ${what}`);
  };
  const present = (node: unknown, ...path: string[]) => text(node, ...path).trim() !== '';
  const lineTag = kind === 'Invoice' ? 'cac:InvoiceLine' : 'cac:CreditNoteLine';
  const quantityTag = kind === 'Invoice' ? 'cbc:InvoicedQuantity' : 'cbc:CreditedQuantity';
  const seller = at(d, 'cac:AccountingSupplierParty', 'cac:Party')[0] ?? {};
  const buyer = at(d, 'cac:AccountingCustomerParty', 'cac:Party')[0] ?? {};
  const totals = at(d, 'cac:LegalMonetaryTotal')[0] ?? {};
  const lines = at(d, lineTag);

  // EN 16931: what every invoice has.
  must('BR-01', present(d, 'cbc:CustomizationID'), 'no specification identifier');
  must('BR-02', present(d, 'cbc:ID'), 'no document number');
  must('BR-03', /^\d{4}-\d{2}-\d{2}$/.test(text(d, 'cbc:IssueDate')), 'no issue date as YYYY-MM-DD');
  must('BR-04', present(d, kind === 'Invoice' ? 'cbc:InvoiceTypeCode' : 'cbc:CreditNoteTypeCode'), 'no type code');
  must('BR-05', present(d, 'cbc:DocumentCurrencyCode'), 'no currency');
  must('BR-06', present(seller, 'cac:PartyLegalEntity', 'cbc:RegistrationName'), "no seller's name");
  must('BR-07', present(buyer, 'cac:PartyLegalEntity', 'cbc:RegistrationName'), "no buyer's name");
  must('BR-08', at(seller, 'cac:PostalAddress').length === 1, "no seller's address");
  must('BR-09', /^[A-Z]{2}$/.test(text(seller, 'cac:PostalAddress', 'cac:Country', 'cbc:IdentificationCode')), "no seller's country");
  must('BR-10', at(buyer, 'cac:PostalAddress').length === 1, "no buyer's address");
  must('BR-11', /^[A-Z]{2}$/.test(text(buyer, 'cac:PostalAddress', 'cac:Country', 'cbc:IdentificationCode')), "no buyer's country");
  for (const [rule, tag] of [
    ['BR-12', 'cbc:LineExtensionAmount'],
    ['BR-13', 'cbc:TaxExclusiveAmount'],
    ['BR-14', 'cbc:TaxInclusiveAmount'],
    ['BR-15', 'cbc:PayableAmount'],
  ] as const) {
    must(rule, isAmount(text(totals, tag)), `no ${tag} as an amount with at most two decimals`);
  }
  must('BR-16', lines.length > 0, 'no line');
  for (const [i, line] of lines.entries()) {
    must('BR-21', present(line, 'cbc:ID'), `line ${i + 1} has no id`);
    must('BR-22', Number(text(line, quantityTag)) > 0, `line ${i + 1} has no quantity`);
    must('BR-23', attribute(line, 'unitCode', quantityTag) !== '', `line ${i + 1} has no unit`);
    must('BR-24', isAmount(text(line, 'cbc:LineExtensionAmount')), `line ${i + 1} has no net amount`);
    must('BR-25', present(line, 'cac:Item', 'cbc:Name'), `line ${i + 1} has no item name`);
    must('BR-26', present(line, 'cac:Price', 'cbc:PriceAmount'), `line ${i + 1} has no price`);
    must('BR-27', Number(text(line, 'cac:Price', 'cbc:PriceAmount')) >= 0, `line ${i + 1} has a negative price`);
    const category = text(line, 'cac:Item', 'cac:ClassifiedTaxCategory', 'cbc:ID');
    const rate = Number(text(line, 'cac:Item', 'cac:ClassifiedTaxCategory', 'cbc:Percent'));
    must('BR-S-05', category !== 'S' || rate > 0, `line ${i + 1} is standard rated at 0 %`);
    must('BR-Z-05', category !== 'Z' || rate === 0, `line ${i + 1} is zero rated above 0 %`);
  }
  // A VAT-rated line needs the seller's VAT id (BR-S-02), which starts with its country's code (BR-CO-09), as a buyer's does.
  const sellerVat = text(seller, 'cac:PartyTaxScheme', 'cbc:CompanyID');
  must('BR-S-02', lines.every((line) => text(line, 'cac:Item', 'cac:ClassifiedTaxCategory', 'cbc:ID') !== 'S') || sellerVat !== '', "no seller's VAT id");
  for (const vat of [sellerVat, text(buyer, 'cac:PartyTaxScheme', 'cbc:CompanyID')].filter((id) => id !== ''))
    must('BR-CO-09', /^[A-Z]{2}[0-9A-Z+*.]{2,13}$/.test(vat), `VAT id ${vat} does not start with a country code`);

  // EN 16931: the sums (BR-CO-10, -13, -14, -15) and per rate (BR-S-08/-09, BR-Z-08).
  const lineSum = lines.reduce((sum, line) => sum + cents(text(line, 'cbc:LineExtensionAmount')), 0);
  const net = cents(text(totals, 'cbc:LineExtensionAmount'));
  must('BR-CO-10', lineSum === net, `the lines add up to ${lineSum}, the total says ${net}`);
  must('BR-CO-13', cents(text(totals, 'cbc:TaxExclusiveAmount')) === net, 'the amount without VAT is not the lines’ sum');
  const subtotals = at(d, 'cac:TaxTotal', 'cac:TaxSubtotal');
  const vat = subtotals.reduce((sum, sub) => sum + cents(text(sub, 'cbc:TaxAmount')), 0);
  must('BR-CO-14', cents(text(d, 'cac:TaxTotal', 'cbc:TaxAmount')) === vat, 'the VAT total is not the sum of its parts');
  must('BR-CO-15', cents(text(totals, 'cbc:TaxInclusiveAmount')) === net + vat, 'the amount with VAT is not net plus VAT');
  must('BR-CO-16', cents(text(totals, 'cbc:PayableAmount')) === net + vat, 'the amount due is not the amount with VAT');
  for (const sub of subtotals) {
    const category = text(sub, 'cac:TaxCategory', 'cbc:ID');
    const rate = Number(text(sub, 'cac:TaxCategory', 'cbc:Percent'));
    const base = lines
      .filter((line) => text(line, 'cac:Item', 'cac:ClassifiedTaxCategory', 'cbc:ID') === category)
      .filter((line) => Number(text(line, 'cac:Item', 'cac:ClassifiedTaxCategory', 'cbc:Percent')) === rate)
      .reduce((sum, line) => sum + cents(text(line, 'cbc:LineExtensionAmount')), 0);
    const rule = category === 'Z' ? 'BR-Z-08' : 'BR-S-08';
    must(rule, cents(text(sub, 'cbc:TaxableAmount')) === base, `the base at ${rate} % is not its lines' sum`);
    must(
      category === 'Z' ? 'BR-Z-09' : 'BR-S-09',
      cents(text(sub, 'cbc:TaxAmount')) === Math.round((base * rate) / 100),
      `the VAT at ${rate} % is not the rate of its base`,
    );
  }

  if (kind === 'Invoice') {
    // An amount due needs a due date or payment terms (BR-CO-25); a credit transfer names the account (BR-61).
    must(
      'BR-CO-25',
      cents(text(totals, 'cbc:PayableAmount')) <= 0 || present(d, 'cbc:DueDate') || present(d, 'cac:PaymentTerms', 'cbc:Note'),
      'an amount due without a due date or terms',
    );
    for (const means of at(d, 'cac:PaymentMeans')) {
      if (['30', '58'].includes(text(means, 'cbc:PaymentMeansCode')))
        must('BR-61', present(means, 'cac:PayeeFinancialAccount', 'cbc:ID'), 'a credit transfer without the account to pay to');
    }
  }

  // NLCIUS, for a Dutch seller.
  if (text(seller, 'cac:PostalAddress', 'cac:Country', 'cbc:IdentificationCode') === 'NL') {
    for (const [rule, party, whose] of [
      ['NL seller address', seller, "seller's"],
      ['NL buyer address', buyer, "buyer's"],
    ] as const) {
      for (const part of ['cbc:StreetName', 'cbc:CityName', 'cbc:PostalZone'])
        must(rule, present(party, 'cac:PostalAddress', part), `the ${whose} address has no ${part}`);
    }
    must(
      'NL seller legal id',
      ['0106', '0190'].includes(attribute(seller, 'schemeID', 'cac:PartyLegalEntity', 'cbc:CompanyID')),
      "the seller's legal id is no KvK or OIN number",
    );
    const buyerId = at(buyer, 'cac:PartyLegalEntity', 'cbc:CompanyID');
    must(
      'NL buyer legal id',
      buyerId.length === 0 || ['0106', '0190'].includes(attribute(buyer, 'schemeID', 'cac:PartyLegalEntity', 'cbc:CompanyID')),
      "the buyer's legal id is no KvK or OIN number",
    );
    if (kind === 'Invoice') must('NL payment means', at(d, 'cac:PaymentMeans').length > 0, 'an invoice without payment means');
    else
      must(
        'NL credit note names its invoice',
        present(d, 'cac:BillingReference', 'cac:InvoiceDocumentReference', 'cbc:ID'),
        'a credit note that names no invoice',
      );
  }
  return problems;
}
