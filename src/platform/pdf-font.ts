import { decodeBase64 } from '@oslojs/encoding';
import type { PDFDocument, PDFFont } from 'pdf-lib';
import type { PdfFontData } from './pdf-font-source';

/**
 * The font every PDF of ours sets its text in (docs/decisions/059): Arimo, regular and bold, cut down by
 * scripts/pdf-fonts.mjs to Latin with its accents (Łukasz Wiśniewski, Dvořák, Şahin, Ștefan, Ő …) and
 * embedded in each document, so a viewer prints what the customer typed. The standard Helvetica printed
 * only WinAnsi. Arimo has Helvetica's widths, so the layout is the one the documents had.
 *
 * pdf-lib embeds a font through a font engine (fontkit) that reads the file; fontkit is larger than the
 * whole Worker bundle, so the script measured the font beforehand and this module answers pdf-lib's few
 * questions (each character's glyph and width, the font's metrics) from those figures. The face is
 * embedded whole: it is already cut down to what we print.
 */

/** The figures of a face that the generated file and pdf-lib's font engine both name, and name alike. */
interface FaceMetrics {
  unitsPerEm: number;
  ascent: number;
  descent: number;
  capHeight: number;
  xHeight: number;
  italicAngle: number;
}

interface FaceData extends FaceMetrics {
  postScriptName: string;
  bbox: number[];
  familyClass: number;
  fixedPitch: boolean;
  italic: boolean;
  notdefAdvance: number;
  /** Per character of `generated.characters`, its glyph's advance width. */
  advances: number[];
  /** The TrueType file, deflated (raw), base64. */
  ttfDeflated: string;
}

interface Glyph {
  id: number;
  advanceWidth: number;
  /** The character the glyph stands for in the PDF's text layer (copy-paste, search). */
  codePoints: number[];
}

/** The part of a fontkit font that pdf-lib's CustomFontEmbedder reads, with `subset: false`. */
interface EngineFont extends FaceMetrics {
  postscriptName: string;
  bbox: { minX: number; minY: number; maxX: number; maxY: number; width: number; height: number };
  characterSet: number[];
  'OS/2': { sFamilyClass: number };
  post: { isFixedPitch: boolean };
  head: { macStyle: { italic: boolean } };
  glyphForCodePoint(codePoint: number): Glyph;
  layout(text: string): { glyphs: Glyph[] };
}

interface Face {
  /** The name in the PDF: a subset tag (six capitals and '+', as PDF names a font cut down) and the font's name. */
  pdfName: string;
  bytes: Uint8Array;
  font: EngineFont;
}

/** The characters both faces have, in the order of `generated.glyphIds` and each face's `advances`. */
function codePointsOf(generated: PdfFontData): number[] {
  return generated.characters.flatMap(([from = 0, to = 0]) => Array.from({ length: to - from + 1 }, (_, i) => from + i));
}

function engineFont(generated: PdfFontData, data: FaceData): EngineFont {
  const byCodePoint = new Map<number, Glyph>();
  const byId = new Map<number, Glyph>();
  codePointsOf(generated).forEach((codePoint, i) => {
    const id = generated.glyphIds[i]!;
    // A glyph that two characters share (hyphen and soft hyphen) stands for the first of them.
    const glyph = byId.get(id) ?? { id, advanceWidth: data.advances[i]!, codePoints: [codePoint] };
    byId.set(id, glyph);
    byCodePoint.set(codePoint, glyph);
  });
  const notdef: Glyph = { id: 0, advanceWidth: data.notdefAdvance, codePoints: [] };
  const glyphForCodePoint = (codePoint: number) => byCodePoint.get(codePoint) ?? notdef;
  const [minX = 0, minY = 0, maxX = 0, maxY = 0] = data.bbox;
  const { unitsPerEm, ascent, descent, capHeight, xHeight, italicAngle } = data;
  return {
    postscriptName: data.postScriptName,
    unitsPerEm,
    ascent,
    descent,
    capHeight,
    xHeight,
    italicAngle,
    bbox: { minX, minY, maxX, maxY, width: maxX - minX, height: maxY - minY },
    characterSet: [...byCodePoint.keys()],
    'OS/2': { sFamilyClass: data.familyClass },
    post: { isFixedPitch: data.fixedPitch },
    head: { macStyle: { italic: data.italic } },
    glyphForCodePoint,
    // One glyph per character, no kerning or ligatures: as pdf-lib set the standard fonts.
    layout: (text) => ({ glyphs: Array.from(text, (char) => glyphForCodePoint(char.codePointAt(0)!)) }),
  };
}

async function inflate(base64: string): Promise<Uint8Array> {
  // A copy on a plain ArrayBuffer, which is what Blob takes.
  const stream = new Blob([new Uint8Array(decodeBase64(base64))]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

async function loadFace(generated: PdfFontData, pdfName: string, data: FaceData): Promise<Face> {
  return { pdfName, bytes: await inflate(data.ttfDeflated), font: engineFont(generated, data) };
}

let source: (() => Promise<PdfFontData>) | null = null;
let faces: Promise<{ regular: Face; bold: Face }> | null = null;

/**
 * Where the font's figures are read from (docs/decisions/059, amended): the runtime's entry says, once. Node
 * imports the generated file; the Worker fetches it from its static assets, so the font is not part of the
 * Worker bundle (docs/decisions/035, amended).
 */
export function readPdfFontsFrom(loader: () => Promise<PdfFontData>): void {
  if (source === loader) return;
  source = loader;
  faces = null;
}

/** Read and inflated once per isolate or process, when the first document is made; a failed read is tried again. */
function loadFaces(): Promise<{ regular: Face; bold: Face }> {
  const load = source;
  if (!load) return Promise.reject(new Error('No PDF font source: the runtime entry sets one with readPdfFontsFrom (src/platform/pdf-font.ts)'));
  faces ??= load()
    .then((generated) =>
      Promise.all([loadFace(generated, 'KPFNTA+Arimo-Regular', generated.regular), loadFace(generated, 'KPFNTB+Arimo-Bold', generated.bold)]),
    )
    .then(([regular, bold]) => ({ regular, bold }))
    .catch((error: unknown) => {
      faces = null;
      throw error;
    });
  return faces;
}

/** pdf-lib's font engine for one document: it hands back the bytes it was given, so the face is found by them. */
function engineFor(loaded: { regular: Face; bold: Face }) {
  return {
    create(bytes: Uint8Array): EngineFont {
      const face = [loaded.regular, loaded.bold].find((candidate) => candidate.bytes === bytes);
      if (!face) throw new Error('Only the fonts of src/platform/pdf-font.ts can be embedded');
      return face.font;
    },
  };
}

export interface DocumentFonts {
  regular: PDFFont;
  bold: PDFFont;
}

/** Embeds the regular and bold face in `doc`; same document, same bytes (no random names). */
export async function embedDocumentFonts(doc: PDFDocument): Promise<DocumentFonts> {
  const loaded = await loadFaces();
  const { regular, bold } = loaded;
  // The engine answers only what CustomFontEmbedder asks (EngineFont), not all of fontkit's Font type.
  doc.registerFontkit(engineFor(loaded) as unknown as Parameters<PDFDocument['registerFontkit']>[0]);
  return {
    regular: await doc.embedFont(regular.bytes, { subset: false, customName: regular.pdfName }),
    bold: await doc.embedFont(bold.bytes, { subset: false, customName: bold.pdfName }),
  };
}
