import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { admin, openPage, signedIn, writes } from '../../../../test/pages';

const respond = (req: { method: string; path: string }) =>
  req.path === '/api/messages/send' && req.method === 'POST'
    ? { status: 200, data: { messageId: 5, messageIds: [5], status: 'queued' } }
    : undefined;

describe('messages API page', () => {
  it('requires token, number and message and sends nothing without them', async () => {
    const { requests } = signedIn(admin(), respond);
    await openPage('/messages-api');
    fireEvent.click(screen.getByTestId('api-text-send'));
    expect((await screen.findAllByText('Obrigatório')).length).toBe(3);
    expect(writes(requests)).toEqual([]);
  });

  it("sends with the connection's token and says 'Mensagem enviada com sucesso'", async () => {
    const { requests } = signedIn(admin(), respond);
    await openPage('/messages-api');
    fireEvent.change(screen.getByTestId('api-text-token'), {
      target: { value: 'tok-0123456789abcdef' },
    });
    fireEvent.change(screen.getByTestId('api-text-number'), { target: { value: '5511999999999' } });
    fireEvent.change(screen.getByTestId('api-text-body'), { target: { value: 'Olá!' } });
    fireEvent.click(screen.getByTestId('api-text-send'));
    expect(await screen.findByText('Mensagem enviada com sucesso')).toBeTruthy();
    await waitFor(() => expect(writes(requests)).toHaveLength(1));
    const [sent] = writes(requests);
    expect(sent).toMatchObject({
      method: 'POST',
      path: '/api/messages/send',
      token: 'tok-0123456789abcdef',
      body: { number: '5511999999999', body: 'Olá!' },
    });
  });
});
