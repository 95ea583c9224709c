/**
 * Playwright helpers for the end-to-end tests: Debian's Chromium through playwright-core
 * (never a downloaded browser), one fresh context per test, screenshots under e2e/screenshots.
 */
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];
export const SCREENSHOT_DIR = fileURLToPath(new URL('./screenshots/', import.meta.url));

/** The server under test; it serves the web build at `/`. */
export const baseUrl = (): string => process.env.ATENDE_URL ?? 'http://localhost:8080';

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}

export interface ContextOptions {
  width?: number;
  height?: number;
  locale?: string;
  colorScheme?: 'light' | 'dark';
  /** The server under test; defaults to ATENDE_URL. */
  baseUrl?: string;
}

export async function newContext(
  browser: Browser,
  options: ContextOptions = {},
): Promise<BrowserContext> {
  return browser.newContext({
    baseURL: options.baseUrl ?? baseUrl(),
    viewport: { width: options.width ?? 1366, height: options.height ?? 800 },
    locale: options.locale ?? 'pt-BR',
    colorScheme: options.colorScheme ?? 'light',
  });
}

/** Signs in through the login form, as a person would, and waits for /tickets. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel(/^Email/).fill(email);
  await page.getByLabel(/^Senha/).fill(password);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.waitForURL('**/tickets');
}

export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const path = `${SCREENSHOT_DIR}${name}.png`;
  await page.screenshot({ path, fullPage: true });
  return path;
}
