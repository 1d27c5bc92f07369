import { extractText } from 'unpdf';

/**
 * The text of a PDF as a reader's copy-paste would give it (PDF.js through `unpdf`), with runs of
 * white space made single spaces so tests can look for phrases such as '€ 225,00'.
 */
export async function pdfText(pdf: Uint8Array): Promise<string> {
  // PDF.js may detach the buffer it is given: hand it a copy.
  const { text } = await extractText(new Uint8Array(pdf), { mergePages: true });
  return text.replace(/\s+/g, ' ');
}
