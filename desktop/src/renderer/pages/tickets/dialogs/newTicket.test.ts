import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../api/errors';
import { makeContact } from '../../../../../test/fixtures';
import { matchQuickMessages } from '../QuickReplies';
import {
  CONTACT_LOOKUP_DELAY_MS,
  contactOptions,
  newTicketProblem,
  otherOpenTicket,
  wantsContactSearch,
} from './newTicket';

const ana = makeContact({ id: 1, name: 'Ana Souza', number: '5511987654321' });

describe('new-ticket rules (core §5, §8, §9)', () => {
  it('searches contacts from 3 characters after 1500 ms', () => {
    expect(CONTACT_LOOKUP_DELAY_MS).toBe(1500);
    expect(wantsContactSearch('an')).toBe(false);
    expect(wantsContactSearch(' an ')).toBe(false);
    expect(wantsContactSearch('ana')).toBe(true);
  });

  it('offers creating a contact from a typed name that no found contact carries', () => {
    expect(contactOptions([ana], 'Bruno')).toEqual([
      { kind: 'contact', contact: ana },
      { kind: 'create', name: 'Bruno' },
    ]);
    expect(contactOptions([ana], 'ana souza')).toEqual([{ kind: 'contact', contact: ana }]);
    expect(contactOptions([], 'Bo')).toEqual([]);
  });

  it("requires a queue unless admin ('Selecione uma fila')", () => {
    expect(newTicketProblem({ contact: ana, queueId: null, isAdmin: false })).toBe(
      'validation.selectQueue',
    );
    expect(newTicketProblem({ contact: ana, queueId: null, isAdmin: true })).toBeNull();
    expect(newTicketProblem({ contact: ana, queueId: 3, isAdmin: false })).toBeNull();
    expect(newTicketProblem({ contact: null, queueId: 3, isAdmin: true })).toBe(
      'newTicket.contact',
    );
  });

  it('reads the owner and queue of ERR_OTHER_OPEN_TICKET', () => {
    const details = { ticketId: 5, uuid: 'u-5', user: { id: 2, name: 'Bia' }, queue: null };
    expect(otherOpenTicket(new ApiError(409, 'ERR_OTHER_OPEN_TICKET', undefined, details))).toEqual(
      details,
    );
    expect(
      otherOpenTicket(new ApiError(404, 'ERR_NO_CONTACT_FOUND', undefined, details)),
    ).toBeNull();
  });

  it('suggests quick messages after / with more than 1 character, by shortcode', () => {
    const list = [
      { shortcode: 'ola', message: 'Olá! Como posso ajudar?' },
      { shortcode: 'obrigado', message: 'Obrigado pelo contato.' },
      { shortcode: 'pix', message: 'Nossa chave Pix é...' },
    ];
    expect(matchQuickMessages(list, '/')).toEqual([]);
    expect(matchQuickMessages(list, 'o')).toEqual([]);
    expect(matchQuickMessages(list, '/o').map((q) => q.shortcode)).toEqual(['ola', 'obrigado']);
    expect(matchQuickMessages(list, '/PI').map((q) => q.shortcode)).toEqual(['pix']);
  });
});
