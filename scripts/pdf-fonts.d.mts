export declare const PDF_FONT_RANGES: [number, number][];
export declare const PDF_FONTS_FILE: string;
export declare function buildPdfFonts(): Promise<Record<string, unknown>>;
