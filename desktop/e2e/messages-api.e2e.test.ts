/**
 * Issue 18 in Chromium: the /messages-api page's test form sends a message, with the connection's
 * token, that the simulated customer receives; the /prompts page lists a prompt (made against the
 * OpenAI-compatible stand-in) with the credit warning. Screenshots at 390, 1000 and 1440 px.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAiStandin } from '../../server/test/standins/openai.js';
import { CHROMIUM_PATH, launchBrowser, newContext, screenshot, signIn } from './browser.js';
import { expectText, hasChromium, startWorld, type World } from './support.js';

if (!hasChromium) {
  console.warn(`\n[e2e] SKIPPED: Debian Chromium not found at ${CHROMIUM_PATH}.\n`);
}

const KEY = 'sk-e2e-5d2c8b1a9f7e3d6c4b2a1f0e9d8c7b6a';

describe.skipIf(!hasChromium)('messages API and prompts pages (Chromium)', () => {
  let world: World;
  let browser: Browser;
  let ai: Awaited<ReturnType<typeof startOpenAiStandin>>;
  let connectionToken: string;

  beforeAll(async () => {
    ai = await startOpenAiStandin({ apiKey: KEY, models: ['gpt-test'] });
    world = await startWorld();
    const rotated = await world.server.request('POST', `/whatsapp/${world.whatsappId}/token`, {
      token: world.apiToken,
    });
    expect(rotated.status).toBe(200);
    connectionToken = rotated.body.token;
    const made = await world.server.request('POST', '/prompt', {
      token: world.apiToken,
      body: {
        name: 'Assistente da loja',
        prompt: 'Você é o assistente da loja. Responda em poucas palavras.',
        apiKey: KEY,
        queueId: world.sales,
        baseUrl: ai.baseUrl,
        model: 'gpt-test',
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await world?.server.close();
    await ai?.close();
  });

  async function pageAt(width: number): Promise<Page> {
    const context = await newContext(browser, { baseUrl: world.server.url, width, height: 900 });
    const page = await context.newPage();
    await signIn(page, world.admin.email, world.admin.password);
    return page;
  }

  /** A phone-width page of its own (a resized desktop page keeps its drawer open). */
  async function phoneShot(path: string, name: string, text: string) {
    const page = await pageAt(390);
    await page.goto(path);
    await expectText(page, text);
    await screenshot(page, name);
    await page.context().close();
  }

  it("the test form sends a message the customer receives ('Mensagem enviada com sucesso')", async () => {
    const page = await pageAt(1440);
    await page.goto('/messages-api');
    await expectText(page, 'Documentação para envio de mensagens');
    await screenshot(page, 'messages-api-1440');
    const phone = '5511955550001';
    await page.getByTestId('api-text-token').fill(connectionToken);
    await page.getByTestId('api-text-number').fill(phone);
    await page.getByTestId('api-text-body').fill('Seu pedido saiu para entrega!');
    await page.getByTestId('api-text-send').click();
    await expectText(page, 'Mensagem enviada com sucesso');
    // The API's lane is the bulk one (paced by the send governor): it may take a while under load.
    const got = await world.sim.until(
      async () => (await world.sim.outbound(world.whatsappId)).find((m) => m.to.startsWith(phone)),
      90_000,
    );
    expect(got.body).toBe('Seu pedido saiu para entrega!');
    await page.setViewportSize({ width: 1000, height: 900 });
    await screenshot(page, 'messages-api-1000');
    await page.context().close();
    await phoneShot('/messages-api', 'messages-api-390', 'Documentação para envio de mensagens');
  }, 180_000);

  it('a wrong token is refused and nothing is sent', async () => {
    const page = await pageAt(1000);
    await page.goto('/messages-api');
    await page.getByTestId('api-text-token').fill('x'.repeat(43));
    await page.getByTestId('api-text-number').fill('5511955550002');
    await page.getByTestId('api-text-body').fill('não deve sair');
    await page.getByTestId('api-text-send').click();
    await expectText(page, 'Token da conexão ausente ou inválido.');
    const out = await world.sim.outbound(world.whatsappId);
    expect(out.filter((m) => m.to.startsWith('5511955550002'))).toEqual([]);
    await page.context().close();
  });

  it('the prompts page lists the prompt with its queue, max tokens and the credit warning', async () => {
    const page = await pageAt(1440);
    await page.goto('/prompts');
    await expectText(page, 'Assistente da loja');
    await expectText(page, /crédito gratuito/);
    expect(await page.content()).not.toContain(KEY);
    await screenshot(page, 'prompts-1440');
    await page.setViewportSize({ width: 1000, height: 900 });
    await screenshot(page, 'prompts-1000');
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.getByRole('button', { name: 'Adicionar Prompt' }).click();
    await page.getByRole('dialog').waitFor();
    await screenshot(page, 'prompts-dialog-1440');
    await page.context().close();
    await phoneShot('/prompts', 'prompts-390', 'Assistente da loja');
  }, 180_000);
});
