export declare function precompress(dir: string): Promise<{ file: string; plain: number; br: number; gzip: number }[]>;
