// Types of scripts/chromium.mjs, for playwright.config.ts.
export declare const chromiumLaunchOptions: { executablePath: string; args: string[] };
