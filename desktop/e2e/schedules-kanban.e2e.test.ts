/**
 * Schedules and kanban in Chromium (issue 17 "Must show"): a schedule made from a ticket reaches
 * the simulated customer at its time (the server's job clock is moved past sendAt; the worker's
 * sweeper fires it), and a kanban card moves by mouse and by keyboard keeping its other tags.
 * Screenshots at 390, 1000 and 1440 px.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setClock } from '../../server/src/modules/routing/clock.js';
import { wallParts } from '../src/renderer/pages/schedules/time.js';
import { CHROMIUM_PATH, launchBrowser, newContext, screenshot, signIn } from './browser.js';
import {
  expectText,
  hasChromium,
  sentTo,
  startWorld,
  ticketOf,
  until,
  type World,
} from './support.js';

if (!hasChromium) {
  console.warn(`\n[e2e] SKIPPED: Debian Chromium not found at ${CHROMIUM_PATH}.\n`);
}

const CUSTOMER = { phone: '5511955554444', name: 'Sofia Agenda' };
const ZONE = 'America/Sao_Paulo';

describe.skipIf(!hasChromium)('schedules and kanban end to end (Chromium + simulator)', () => {
  let world: World;
  let browser: Browser;
  let page: Page;
  let ticket: { id: number; uuid: string };
  const tagIds: Record<string, number> = {};

  beforeAll(async () => {
    world = await startWorld();
    browser = await launchBrowser();
    const context = await newContext(browser, { baseUrl: world.server.url, width: 1440 });
    page = await context.newPage();
    page.on('pageerror', (error) => console.warn(`[browser] ${error.message}`));
    await world.sim.inbound({
      whatsappId: world.whatsappId,
      from: CUSTOMER.phone,
      name: CUSTOMER.name,
      body: 'Quero marcar um horário',
    });
    ticket = await ticketOf(world, CUSTOMER.phone);
    // Schedules ride the bulk lane, which the send governor holds outside 08:00-20:00 (company
    // zone): this connection's policy opens the window all day so the test runs at any hour.
    await world.server.app.ds.query(
      `INSERT INTO send_governor ("whatsappId", "companyId", policy, "startedAt")
       SELECT id, "companyId", $2::jsonb, now() FROM whatsapps WHERE id = $1
       ON CONFLICT ("whatsappId") DO UPDATE SET policy = EXCLUDED.policy`,
      [world.whatsappId, JSON.stringify({ window: { start: '00:00', end: '23:59' } })],
    );
    for (const [name, kanban, color] of [
      ['Novo', 1, '#1E88E5'],
      ['Em andamento', 1, '#F4511E'],
      ['VIP', 0, '#8E24AA'],
    ] as const) {
      const res = await world.server.request<{ id: number }>('POST', '/tags', {
        token: world.apiToken,
        body: { name, kanban, color },
      });
      tagIds[name] = res.body.id;
    }
    await signIn(page, world.admin.email, world.admin.password);
  });
  afterEach(async (ctx) => {
    setClock(undefined);
    if (ctx.task.result?.state === 'fail' && page && !page.isClosed()) {
      await screenshot(page, `failed-${ctx.task.name.replace(/\W+/g, '-').slice(0, 40)}`);
    }
  });
  afterAll(async () => {
    setClock(undefined);
    await browser?.close();
    await world?.server.close();
  });

  /** The page at 390, 1000 and 1440 px, each loaded at that width (the shell starts as a phone's). */
  const shoot = async (name: string, ready: () => Promise<unknown>) => {
    for (const width of [390, 1000, 1440]) {
      await page.setViewportSize({ width, height: 860 });
      await page.reload();
      await ready();
      await screenshot(page, `${name}-${width}`);
    }
    await page.setViewportSize({ width: 1440, height: 860 });
    await page.reload();
    await ready();
  };

  it('schedules a message from the ticket; at its time the customer receives it', async () => {
    await page.goto(`/tickets/${ticket.uuid}`);
    await expectText(page, 'Quero marcar um horário');
    await page.getByRole('button', { name: 'Opções', exact: true }).first().click();
    await page.getByTestId('ticket-schedule').click();
    await expect(page.getByTestId('schedule-dialog-title').textContent()).resolves.toBe(
      'Mensagem Pendente',
    );
    // Core §5: one hour ahead by default, DD/MM/YYYY.
    const ahead = wallParts(Date.now() + 3_600_000, ZONE);
    expect(await page.getByTestId('schedule-date').inputValue()).toBe(ahead.date);
    // Too short: the rule's message, nothing saved.
    await page.getByTestId('schedule-body').fill('Oi');
    await page.getByTestId('schedule-save').click();
    await expectText(page, 'Mensagem muito curta');
    await screenshot(page, 'schedule-dialog-invalid');
    // Two minutes ahead (the dialog has minute precision).
    const sendAt = Math.ceil((Date.now() + 120_000) / 60_000) * 60_000;
    const when = wallParts(sendAt, ZONE);
    await page.getByTestId('schedule-body').fill('Lembrete: sua consulta é amanhã às 10h.');
    await page.getByTestId('schedule-date').fill(when.date);
    await page.getByTestId('schedule-time').fill(when.time);
    await page.getByTestId('schedule-save').click();
    await expectText(page, 'Agendamento salvo com sucesso!');
    const [row] = (await world.server.app.ds.query(
      `SELECT id, "sendAt", status FROM schedules WHERE "contactId" =
         (SELECT "contactId" FROM tickets WHERE id = $1)`,
      [ticket.id],
    )) as { id: number; sendAt: Date; status: string }[];
    expect(row!.status).toBe('PENDENTE');
    expect(new Date(row!.sendAt).getTime()).toBe(sendAt);
    // Nothing goes out before its time.
    expect(
      (await world.sim.outbound(world.whatsappId)).some((o: { body?: string }) =>
        /sua consulta/.test(o.body ?? ''),
      ),
    ).toBe(false);
    // The job clock reaches sendAt: the worker's sweeper (every 5 s) sends it.
    setClock(() => new Date(sendAt + 1_000));
    const sent = await sentTo(world, (o) => o.kind === 'text' && /sua consulta/.test(o.body));
    expect(sent.to).toContain(CUSTOMER.phone);
    // It is in the ticket thread, and the schedule shows as sent.
    await expectText(page, 'Lembrete: sua consulta é amanhã às 10h.');
    await until(async () => {
      const [r] = (await world.server.app.ds.query('SELECT status FROM schedules WHERE id = $1', [
        row!.id,
      ])) as { status: string }[];
      return r!.status === 'ENVIADA';
    }, 15_000);
    await screenshot(page, 'schedule-sent-in-thread');
  });

  it('shows the calendar; the sent schedule opens read-only', async () => {
    await page.goto('/schedules');
    // Phones open on the agenda, wider screens on the month: the schedule shows on both.
    await shoot('schedules', () => expectText(page, /Sofia Agenda: Lembrete/));
    await page.getByRole('button', { name: 'Agenda', exact: true }).click();
    await expectText(page, /Sofia Agenda: Lembrete/);
    await screenshot(page, 'schedules-agenda-1440');
    await page.getByRole('button', { name: 'Semana', exact: true }).click();
    await screenshot(page, 'schedules-week-1440');
    await page
      .getByText(/Sofia Agenda: Lembrete/)
      .first()
      .click();
    await expect(page.getByTestId('schedule-dialog-title').textContent()).resolves.toBe(
      'Mensagem Enviada',
    );
    expect(await page.getByTestId('schedule-save').count()).toBe(0);
    expect(await page.getByTestId('schedule-body').isDisabled()).toBe(true);
    await screenshot(page, 'schedule-dialog-sent');
    await page.getByRole('button', { name: 'Fechar', exact: true }).click();
  });

  it('?contactId= opens a new schedule for that contact', async () => {
    const [c] = (await world.server.app.ds.query('SELECT id FROM contacts WHERE number = $1', [
      CUSTOMER.phone,
    ])) as { id: number }[];
    await page.goto(`/schedules?contactId=${c!.id}`);
    await page.getByTestId('schedule-body').waitFor();
    expect(await page.getByTestId('schedule-contact').inputValue()).toContain(CUSTOMER.name);
    await page.getByRole('button', { name: 'Fechar', exact: true }).click();
  });

  const tagsOf = async () =>
    (
      (await world.server.app.ds.query(
        'SELECT "tagId" FROM ticket_tags WHERE "ticketId" = $1 ORDER BY "tagId"',
        [ticket.id],
      )) as { tagId: number }[]
    ).map((r) => r.tagId);
  const card = () => page.getByTestId(`kanban-card-${ticket.id}`);
  const lane = (key: string) => page.getByTestId(`kanban-lane-${key}`);

  it('drags a card by mouse to another lane; the other tags stay', async () => {
    await world.server.app.ds.query(
      `INSERT INTO ticket_tags ("ticketId", "tagId") VALUES ($1, $2)`,
      [ticket.id, tagIds.VIP],
    );
    await page.goto('/kanban');
    await lane('open').getByTestId(`kanban-card-${ticket.id}`).waitFor();
    await shoot('kanban', () => lane('open').getByTestId(`kanban-card-${ticket.id}`).waitFor());
    const from = (await card().boundingBox())!;
    const to = (await lane(`tag-${tagIds.Novo}`).boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + 20);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2 + 10, from.y + 30, { steps: 5 });
    await page.mouse.move(to.x + to.width / 2, to.y + 120, { steps: 20 });
    await page.mouse.up();
    await expectText(page, 'Ticket Tag Adicionado com Sucesso!');
    await lane(`tag-${tagIds.Novo}`).getByTestId(`kanban-card-${ticket.id}`).waitFor();
    expect(await tagsOf()).toEqual([tagIds.Novo!, tagIds.VIP!].sort((a, b) => a - b));
  });

  it('drags a card by keyboard to the lane on its left', async () => {
    await card().focus();
    await page.keyboard.press('Space');
    // The library announces the lift (its live region), then takes the arrow keys.
    const announced = (text: string) =>
      page.waitForFunction(
        (t) =>
          [...document.querySelectorAll('[id^="rfd-announcement"]')].some((e) =>
            (e.textContent ?? '').includes(t),
          ),
        text,
      );
    await announced('lifted');
    // Lanes by name: Em aberto, Em andamento, Novo. The card is in Novo.
    await page.keyboard.press('ArrowLeft');
    await announced('moved');
    await page.keyboard.press('Space');
    await lane(`tag-${tagIds['Em andamento']}`)
      .getByTestId(`kanban-card-${ticket.id}`)
      .waitFor({ timeout: 15_000 });
    await until(async () => {
      const tags = await tagsOf();
      return (
        tags.includes(tagIds['Em andamento']!) && tags.includes(tagIds.VIP!) && tags.length === 2
      );
    }, 15_000);
    await screenshot(page, 'kanban-after-moves-1440');
  });
});
