// Types of scripts/reference-rates.mjs, for its unit test.
export declare const SERIES: string[];
export declare function percentToBp(text: string): number | null;
export type Request = { sql: string; remote: boolean; describe: string };
export declare function parseCommand(argv: string[]): Request | { error: string };
export declare function wranglerArgs(request: Request): string[];
