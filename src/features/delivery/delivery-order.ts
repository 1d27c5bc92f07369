/** What the route order of a delivery list looks at. */
export interface DeliveryAddress {
  postalCode: string;
  address: string;
}

// Numeric collation reads the digits in a text as a number, so 'Voorstraat 2' comes before 'Voorstraat 10'
// and '2a' after '2'; case and accents do not count ('voorstraat' sits with 'Voorstraat').
let collator: Intl.Collator | null = null;
const collate = () => (collator ??= new Intl.Collator('nl-NL', { numeric: true, sensitivity: 'base' }));

// '8861 BJ' and '8861BJ' are the same postal code however it was typed.
const postalKey = (postalCode: string) => postalCode.replace(/\s+/g, '');

/**
 * The order a member drives in: by postal code (a Dutch code is a street or part of one), then by the
 * address, which holds the street and then the house number. One comparison of the whole address does
 * both: the same street text comes first, and its house numbers then compare as numbers.
 */
export function compareDeliveryAddresses(a: DeliveryAddress, b: DeliveryAddress): number {
  return collate().compare(postalKey(a.postalCode), postalKey(b.postalCode)) || collate().compare(a.address.trim(), b.address.trim());
}
