// `node scripts/pdf-fonts.mjs`: writes src/platform/pdf-fonts.generated.json, the font our PDFs embed
// (docs/decisions/059), from the Arimo TrueType files of the npm package @expo-google-fonts/arimo (SIL Open
// Font License 1.1, which allows embedding and redistribution with its notice). Arimo has Helvetica's and
// Arial's widths, so the documents keep the layout they had in the standard Helvetica.
//
// The Worker cannot carry a font engine (fontkit alone is larger than the whole Worker bundle), so the work
// is done here: harfbuzz (subset-font) cuts each face down to the characters below without hinting, and
// fontkit reads the metrics and each character's glyph and width from the result. At run time
// src/platform/pdf-font.ts hands those to pdf-lib, and the face is embedded whole.
//
// Run it after changing PDF_FONT_RANGES or the font package; src/platform/pdf-font.test.ts fails while
// the generated file is not what this script makes.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { deflateRawSync } from 'node:zlib';
import * as fontkit from 'fontkit';
import subsetFont from 'subset-font';

const require = createRequire(import.meta.url);
const PACKAGE = '@expo-google-fonts/arimo';

/** The characters a document can print; anything else falls back as pdf-writer.ts's `printable` says. */
export const PDF_FONT_RANGES = [
  [0x20, 0x7e], // Basic Latin
  [0xa0, 0x17f], // Latin-1 Supplement and Latin Extended-A: Polish, Czech, Slovak, Hungarian, Turkish, Baltic, Maltese, Croatian …
  [0x18f, 0x18f], // Ə (Azerbaijani)
  [0x192, 0x192], // ƒ (in WinAnsi, so the standard fonts printed it)
  [0x218, 0x21b], // Ș ș Ț ț (Romanian)
  [0x259, 0x259], // ə
  [0x2c6, 0x2c7], // ˆ ˇ
  [0x2d8, 0x2dd], // ˘ ˙ ˚ ˛ ˜ ˝
  [0x2013, 0x2014], // – —
  [0x2018, 0x201a], // ‘ ’ ‚
  [0x201c, 0x201e], // “ ” „
  [0x2020, 0x2022], // † ‡ •
  [0x2026, 0x2026], // …
  [0x2030, 0x2030], // ‰
  [0x2039, 0x203a], // ‹ ›
  [0x20ac, 0x20ac], // €
  [0x2122, 0x2122], // ™
];

const FACES = { regular: '400Regular/Arimo_400Regular.ttf', bold: '700Bold/Arimo_700Bold.ttf' };

function characters() {
  let text = '';
  for (const [from, to] of PDF_FONT_RANGES) for (let c = from; c <= to; c++) text += String.fromCodePoint(c);
  return text;
}

/**
 * A glyph's advance width from the hmtx table (glyphs past its last entry share that entry's width). Read
 * there, not through fontkit's glyph, which fails on an empty glyph at the end of glyf (the no-break space).
 */
function advanceOf(font, id) {
  const metrics = font.hmtx.metrics;
  return metrics.get(Math.min(id, metrics.length - 1)).advance;
}

/** One face, cut down: the TrueType file and fontkit's reading of it. */
async function face(file) {
  const source = readFileSync(require.resolve(`${PACKAGE}/${file}`));
  // No hinting and no layout tables: PDF viewers do not hint, and our text is set glyph by glyph.
  const ttf = await subsetFont(source, characters(), {
    targetFormat: 'sfnt',
    noHinting: true,
    keepFeatures: [],
    dropTables: ['GSUB', 'GPOS', 'GDEF', 'STAT', 'gasp'],
    preserveNameIds: [0, 13, 14],
  });
  // fontkit reads the bytes through their ArrayBuffer: hand it a copy of its own, not a slice of a pool.
  const bytes = new Uint8Array(ttf);
  return { bytes, font: fontkit.create(Buffer.from(bytes)) };
}

const codePointsOf = (text) => [...text].map((char) => char.codePointAt(0));

/** [from, to] runs of consecutive code points. */
function ranges(codePoints) {
  const runs = [];
  for (const codePoint of codePoints) {
    const last = runs.at(-1);
    if (last && last[1] === codePoint - 1) last[1] = codePoint;
    else runs.push([codePoint, codePoint]);
  }
  return runs;
}

function metrics({ bytes, font }, codePoints) {
  const { minX, minY, maxX, maxY } = font.bbox;
  return {
    postScriptName: font.postscriptName,
    unitsPerEm: font.unitsPerEm,
    ascent: font.ascent,
    descent: font.descent,
    capHeight: font.capHeight,
    xHeight: font.xHeight,
    italicAngle: font.italicAngle,
    bbox: [minX, minY, maxX, maxY],
    familyClass: font['OS/2']?.sFamilyClass ?? 0,
    fixedPitch: Boolean(font.post.isFixedPitch),
    italic: Boolean(font.head.macStyle.italic),
    notdefAdvance: advanceOf(font, 0),
    /** Per character of `characters`, its glyph's advance width. */
    advances: codePoints.map((codePoint) => advanceOf(font, font.glyphForCodePoint(codePoint).id)),
    // Deflated, so the Worker bundle carries less (base64 of the plain file packs a sixth worse).
    ttfDeflated: deflateRawSync(bytes, { level: 9 }).toString('base64'),
  };
}

/** The generated file's content. */
export async function buildPdfFonts() {
  const { version } = JSON.parse(readFileSync(require.resolve(`${PACKAGE}/package.json`), 'utf8'));
  const regular = await face(FACES.regular);
  const bold = await face(FACES.bold);
  const codePoints = codePointsOf(characters()).filter((c) => regular.font.hasGlyphForCodePoint(c) && bold.font.hasGlyphForCodePoint(c));
  const glyphIds = codePoints.map((codePoint) => regular.font.glyphForCodePoint(codePoint).id);
  // Both Arimo faces number their glyphs alike, so one list serves both; a font that did not would fail here.
  if (codePoints.some((codePoint, i) => bold.font.glyphForCodePoint(codePoint).id !== glyphIds[i])) {
    throw new Error('The regular and bold faces number their glyphs differently');
  }
  return {
    generatedBy: 'scripts/pdf-fonts.mjs (do not edit)',
    source: `${PACKAGE} ${version}: Arimo, Copyright The Arimo Project Authors, SIL Open Font License 1.1`,
    /** The characters both faces have, as [from, to] runs of code points. */
    characters: ranges(codePoints),
    /** Per character, its glyph id in either face. */
    glyphIds,
    regular: metrics(regular, codePoints),
    bold: metrics(bold, codePoints),
  };
}

export const PDF_FONTS_FILE = fileURLToPath(new URL('../src/platform/pdf-fonts.generated.json', import.meta.url));

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  writeFileSync(PDF_FONTS_FILE, `${JSON.stringify(await buildPdfFonts(), null, 2)}\n`);
  // In the project's format, so `npm run lint` passes on it as written.
  execFileSync(process.execPath, [require.resolve('@biomejs/biome/bin/biome'), 'format', '--write', PDF_FONTS_FILE], { stdio: 'inherit' });
  console.log(`${PDF_FONTS_FILE} written`);
}
