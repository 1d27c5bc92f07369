/**
 * The one column every band of a page lines up in: the top bar, the admin toolbar and its banner, the
 * page's content and the footer. Max width 1100 (docs/product.md §9) with the same side padding, so their edges meet
 * on every screen; a wide table fits this column rather than widening one band alone.
 */
export const CONTENT_COLUMN = "mx-auto w-full max-w-content px-4 sm:px-6";
