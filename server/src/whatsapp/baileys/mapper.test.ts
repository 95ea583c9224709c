import { WAMessageStubType, proto } from 'baileys';
import type { WAMessage, WAMessageKey } from 'baileys';
import { describe, expect, it } from 'vitest';
import { storedMediaType } from '../port.js';
import type { PortMessage } from '../port.js';
import {
  decodeMediaLocator,
  mapContacts,
  mapLidMapping,
  mapMessageUpdates,
  mapReactions,
  mapReceipts,
  mapUpsert,
} from './mapper.js';

const ctx = { connectionId: 'conn-1' };
const CUSTOMER = '5511988887777@s.whatsapp.net';
const CUSTOMER_LID = '201234567890123@lid';
const GROUP = '120363040000000000@g.us';
const TS = 1_760_000_000;

/** A Baileys message built the way Baileys builds them; alt JIDs live outside the protobuf. */
function wa(
  message: Record<string, unknown> | undefined,
  extra: Record<string, unknown> = {},
  key: Partial<WAMessageKey> = {},
): WAMessage {
  const info = proto.WebMessageInfo.fromObject({
    key: { remoteJid: CUSTOMER, fromMe: false, id: 'MSG1' },
    messageTimestamp: TS,
    pushName: 'Maria',
    ...(message && { message }),
    ...extra,
  });
  Object.assign(info.key!, key);
  return info as WAMessage;
}

/** Map one upserted message and return its port message (fails if there is none). */
function one(msg: WAMessage, type: 'notify' | 'append' = 'notify'): PortMessage {
  const events = mapUpsert(ctx, { messages: [msg], type });
  expect(events).toHaveLength(1);
  const [event] = events;
  if (event?.name !== 'message') throw new Error(`expected a message, got ${event?.name}`);
  return event.payload;
}

const none = (msg: WAMessage) =>
  expect(mapUpsert(ctx, { messages: [msg], type: 'notify' })).toEqual([]);

const mediaKey = Buffer.from('0123456789abcdef0123456789abcdef');

describe('mapUpsert', () => {
  it('maps a plain conversation with everything the pipeline needs', () => {
    expect(one(wa({ conversation: 'Oi, tudo bem?' }))).toEqual({
      connectionId: 'conn-1',
      id: 'MSG1',
      fromMe: false,
      chatId: CUSTOMER,
      contact: { phone: '5511988887777' },
      pushName: 'Maria',
      type: 'chat',
      body: 'Oi, tudo bem?',
      timestamp: TS * 1000,
      isGroup: false,
      offline: false,
    });
  });

  it('keeps messages WhatsApp queued while offline (append), flagged as offline', () => {
    const events = mapUpsert(ctx, {
      type: 'append',
      messages: [wa({ conversation: 'um' }), wa({ conversation: 'dois' }, {}, { id: 'MSG2' })],
    });
    expect(events.map((e) => e.name === 'message' && [e.payload.body, e.payload.offline])).toEqual([
      ['um', true],
      ['dois', true],
    ]);
  });

  it('maps our own messages sent from the phone as fromMe', () => {
    const m = one(wa({ conversation: 'enviado do celular' }, {}, { fromMe: true }));
    expect(m.fromMe).toBe(true);
    expect(m.contact).toEqual({ phone: '5511988887777' });
  });

  it('maps extended text and a reply to a quoted message', () => {
    const m = one(
      wa({
        extendedTextMessage: {
          text: 'respondendo',
          contextInfo: {
            stanzaId: 'QUOTED1',
            participant: CUSTOMER,
            quotedMessage: { conversation: 'x' },
          },
        },
      }),
    );
    expect([m.type, m.body, m.quotedId]).toEqual(['chat', 'respondendo', 'QUOTED1']);
  });

  it('maps an image with caption and a locator that can fetch it later', () => {
    const m = one(
      wa({
        imageMessage: {
          caption: 'foto do produto',
          mimetype: 'image/jpeg',
          mediaKey,
          directPath: '/v/t62/abc',
          url: 'https://mmg.whatsapp.net/abc',
          fileLength: 2048,
          contextInfo: { stanzaId: 'Q2' },
        },
      }),
    );
    expect([m.type, m.body, m.quotedId]).toEqual(['image', 'foto do produto', 'Q2']);
    expect(m.media).toMatchObject({ kind: 'image', mimetype: 'image/jpeg', fileLength: 2048 });
    expect(decodeMediaLocator(m.media!.locator)).toEqual({
      type: 'image',
      mediaKey: mediaKey.toString('base64'),
      directPath: '/v/t62/abc',
      url: 'https://mmg.whatsapp.net/abc',
    });
  });

  it('maps video with caption, voice notes and audio files', () => {
    const video = one(
      wa({ videoMessage: { caption: 'vídeo', mimetype: 'video/mp4', seconds: 12, mediaKey } }),
    );
    expect([video.type, video.body, video.media?.seconds]).toEqual(['video', 'vídeo', 12]);

    const ptt = one(
      wa({ audioMessage: { mimetype: 'audio/ogg; codecs=opus', ptt: true, seconds: 4, mediaKey } }),
    );
    expect([ptt.type, ptt.body, ptt.media?.voiceNote, ptt.media?.seconds]).toEqual([
      'audio',
      '',
      true,
      4,
    ]);

    const file = one(wa({ audioMessage: { mimetype: 'audio/mpeg', mediaKey } }));
    expect(file.media?.voiceNote).toBeUndefined();
  });

  it('maps documents (stored as application), with and without caption', () => {
    const doc = one(
      wa({ documentMessage: { mimetype: 'application/pdf', fileName: 'boleto.pdf', mediaKey } }),
    );
    expect([doc.type, storedMediaType(doc.type), doc.body, doc.media?.fileName]).toEqual([
      'document',
      'application',
      'boleto.pdf',
      'boleto.pdf',
    ]);

    const captioned = one(
      wa({
        documentWithCaptionMessage: {
          message: {
            documentMessage: {
              mimetype: 'application/pdf',
              fileName: 'nota.pdf',
              caption: 'segue a nota',
              mediaKey,
            },
          },
        },
      }),
    );
    expect([captioned.type, captioned.body, captioned.media?.fileName]).toEqual([
      'document',
      'segue a nota',
      'nota.pdf',
    ]);
  });

  it('maps a location', () => {
    const m = one(
      wa({ locationMessage: { degreesLatitude: -23.55, degreesLongitude: -46.63, name: 'Loja' } }),
    );
    expect([m.type, m.body, m.location]).toEqual([
      'locationMessage',
      'Loja',
      { latitude: -23.55, longitude: -46.63, name: 'Loja' },
    ]);
  });

  it('maps one contact card and a list of cards', () => {
    const vcard =
      'BEGIN:VCARD\nVERSION:3.0\nFN:João\nTEL;waid=5511911112222:+55 11 91111-2222\nEND:VCARD';
    const card = one(wa({ contactMessage: { displayName: 'João', vcard } }));
    expect([card.type, card.body, card.vcards]).toEqual(['contactMessage', 'João', [vcard]]);

    const list = one(
      wa({
        contactsArrayMessage: {
          displayName: '2 contatos',
          contacts: [
            { displayName: 'João', vcard },
            { displayName: 'Ana', vcard: vcard.replace('João', 'Ana') },
          ],
        },
      }),
    );
    expect([list.type, list.body, list.vcards?.length]).toEqual(['vcard', '2 contatos', 2]);
  });

  it('maps missed calls (stubs) and call offers as call_log', () => {
    const missed = one(wa(undefined, { messageStubType: WAMessageStubType.CALL_MISSED_VIDEO }));
    expect([missed.type, missed.body]).toEqual(['call_log', 'missed-video-call']);
    const voice = one(wa(undefined, { messageStubType: WAMessageStubType.CALL_MISSED_VOICE }));
    expect(voice.body).toBe('missed-voice-call');
    const offer = one(wa({ call: { callKey: Buffer.from('call-1') } }));
    expect(offer.type).toBe('call_log');
  });

  it('maps a message that failed to decrypt to a ciphertext placeholder with the same id', () => {
    const stub = one(
      wa(undefined, {
        messageStubType: WAMessageStubType.CIPHERTEXT,
        messageStubParameters: ['No session record'],
      }),
    );
    expect([stub.type, stub.body, stub.id]).toEqual(['ciphertext', '', 'MSG1']);
    // The content arriving later under the same id maps to the same (connection, id, fromMe).
    const real = one(wa({ conversation: 'agora sim' }));
    expect([real.id, real.fromMe, real.type]).toEqual([stub.id, stub.fromMe, 'chat']);
  });

  it('unwraps ephemeral and view-once messages', () => {
    const eph = one(wa({ ephemeralMessage: { message: { conversation: 'some em 7 dias' } } }));
    expect([eph.type, eph.body]).toEqual(['chat', 'some em 7 dias']);
    const once = one(
      wa({
        viewOnceMessageV2: {
          message: {
            imageMessage: { mimetype: 'image/jpeg', caption: 'uma vez', viewOnce: true, mediaKey },
          },
        },
      }),
    );
    expect([once.type, once.body]).toEqual(['image', 'uma vez']);
  });

  it('maps a group message whose author is a LID, with the phone from participantAlt', () => {
    const m = one(
      wa(
        { conversation: 'oi grupo' },
        {},
        {
          remoteJid: GROUP,
          participant: CUSTOMER_LID,
          participantAlt: '5511988887777@s.whatsapp.net',
          addressingMode: 'lid',
        },
      ),
    );
    expect(m).toMatchObject({
      chatId: GROUP,
      isGroup: true,
      group: { id: GROUP },
      participant: { lid: '201234567890123', phone: '5511988887777' },
      contact: { lid: '201234567890123', phone: '5511988887777' },
    });
  });

  it('maps a private chat addressed by LID, with the phone from remoteJidAlt', () => {
    const m = one(
      wa({ conversation: 'oi' }, {}, { remoteJid: CUSTOMER_LID, remoteJidAlt: CUSTOMER }),
    );
    expect([m.chatId, m.contact, m.isGroup]).toEqual([
      CUSTOMER_LID,
      { lid: '201234567890123', phone: '5511988887777' },
      false,
    ]);
    const lidOnly = one(wa({ conversation: 'oi' }, {}, { remoteJid: CUSTOMER_LID }));
    expect(lidOnly.contact).toEqual({ lid: '201234567890123' });
  });

  it('strips the device from a sender JID', () => {
    const m = one(wa({ conversation: 'oi' }, {}, { remoteJid: '5511988887777:12@s.whatsapp.net' }));
    expect([m.chatId, m.contact.phone]).toEqual([CUSTOMER, '5511988887777']);
  });

  it('ignores statuses, and leaves protocol messages and reactions to their own events', () => {
    none(
      wa({ conversation: 'status' }, {}, { remoteJid: 'status@broadcast', participant: CUSTOMER }),
    );
    none(
      wa({
        protocolMessage: { type: proto.Message.ProtocolMessage.Type.REVOKE, key: { id: 'X' } },
      }),
    );
    none(wa({ reactionMessage: { text: '👍', key: { id: 'X', remoteJid: CUSTOMER } } }));
    none(wa({ senderKeyDistributionMessage: { groupId: GROUP } }));
  });
});

describe('mapMessageUpdates', () => {
  const key = { remoteJid: CUSTOMER, id: 'OUT1', fromMe: true };
  const ref = { chatId: CUSTOMER, id: 'OUT1', fromMe: true };

  it.each([
    [proto.WebMessageInfo.Status.PENDING, 1],
    [proto.WebMessageInfo.Status.SERVER_ACK, 2],
    [proto.WebMessageInfo.Status.DELIVERY_ACK, 3],
    [proto.WebMessageInfo.Status.READ, 4],
    [proto.WebMessageInfo.Status.PLAYED, 5],
  ])('status %i is ack %i', (status, ack) => {
    expect(mapMessageUpdates(ctx, [{ key, update: { status } }])).toEqual([
      { name: 'ack', payload: { connectionId: 'conn-1', ref, ack } },
    ]);
  });

  it('marks an error status as failed at ack 0', () => {
    expect(
      mapMessageUpdates(ctx, [{ key, update: { status: proto.WebMessageInfo.Status.ERROR } }]),
    ).toEqual([{ name: 'ack', payload: { connectionId: 'conn-1', ref, ack: 0, failed: true } }]);
  });

  it('maps an edit (editedMessage, as Baileys emits it for MESSAGE_EDIT)', () => {
    const update = {
      message: proto.Message.fromObject({
        editedMessage: { message: { conversation: 'texto corrigido' } },
      }),
      messageTimestamp: TS + 60,
    };
    expect(mapMessageUpdates(ctx, [{ key: { ...key, fromMe: false }, update }])).toEqual([
      {
        name: 'edit',
        payload: {
          connectionId: 'conn-1',
          ref: { ...ref, fromMe: false },
          body: 'texto corrigido',
          timestamp: (TS + 60) * 1000,
        },
      },
    ]);
  });

  it('maps a revoke (protocolMessage REVOKE becomes a REVOKE stub update)', () => {
    const update = { message: null, messageStubType: WAMessageStubType.REVOKE, key };
    expect(mapMessageUpdates(ctx, [{ key, update }])).toEqual([
      { name: 'revoke', payload: { connectionId: 'conn-1', ref } },
    ]);
  });

  it('ignores updates without an ack, edit or revoke, and status broadcasts', () => {
    expect(mapMessageUpdates(ctx, [{ key, update: { messageStubParameters: ['x'] } }])).toEqual([]);
    expect(
      mapMessageUpdates(ctx, [
        { key: { ...key, remoteJid: 'status@broadcast' }, update: { status: 3 } },
      ]),
    ).toEqual([]);
  });
});

describe('mapReactions and mapReceipts', () => {
  it('maps a reaction and its removal in a group, by a LID participant', () => {
    const target = {
      remoteJid: GROUP,
      id: 'T1',
      fromMe: true,
      participant: '5511900000000@s.whatsapp.net',
    };
    const by = {
      remoteJid: GROUP,
      id: 'R1',
      fromMe: false,
      participant: CUSTOMER_LID,
      participantAlt: CUSTOMER,
    };
    const events = mapReactions(ctx, [
      { key: target, reaction: { key: by, text: '❤️', senderTimestampMs: 1_000 } },
      { key: target, reaction: { key: by, text: '', senderTimestampMs: 2_000 } },
    ]);
    expect(events).toEqual([
      {
        name: 'reaction',
        payload: {
          connectionId: 'conn-1',
          target: { chatId: GROUP, id: 'T1', fromMe: true, participant: target.participant },
          emoji: '❤️',
          from: { lid: '201234567890123', phone: '5511988887777' },
          fromMe: false,
          timestamp: 1_000,
        },
      },
      expect.objectContaining({
        payload: expect.objectContaining({ emoji: '', timestamp: 2_000 }),
      }),
    ]);
  });

  it('maps group receipts: delivered 3, read 4, played 5', () => {
    const key = { remoteJid: GROUP, id: 'OUT2', fromMe: true };
    const events = mapReceipts(ctx, [
      { key, receipt: { userJid: CUSTOMER, receiptTimestamp: 1 } },
      { key, receipt: { userJid: CUSTOMER, readTimestamp: 2 } },
      { key, receipt: { userJid: CUSTOMER_LID, playedTimestamp: 3 } },
      { key, receipt: { userJid: CUSTOMER } },
    ]);
    expect(events.map((e) => e.name === 'ack' && [e.payload.ack, e.payload.by])).toEqual([
      [3, { phone: '5511988887777' }],
      [4, { phone: '5511988887777' }],
      [5, { lid: '201234567890123' }],
    ]);
  });
});

describe('contacts', () => {
  it('maps a lid-mapping update to a contact with both identities', () => {
    expect(mapLidMapping(ctx, { lid: CUSTOMER_LID, pn: CUSTOMER })).toEqual([
      {
        name: 'contacts',
        payload: {
          connectionId: 'conn-1',
          contacts: [{ identities: { phone: '5511988887777', lid: '201234567890123' } }],
        },
      },
    ]);
    expect(mapLidMapping(ctx, { lid: CUSTOMER_LID, pn: '' })).toEqual([]);
  });

  it('maps contacts.upsert, skipping groups', () => {
    expect(
      mapContacts(ctx, [
        { id: CUSTOMER_LID, phoneNumber: CUSTOMER, name: 'Maria Silva', notify: 'Maria' },
        { id: '5511977776666@s.whatsapp.net', notify: 'Zé' },
        { id: GROUP, name: 'Grupo' },
      ]),
    ).toEqual([
      {
        name: 'contacts',
        payload: {
          connectionId: 'conn-1',
          contacts: [
            {
              identities: { lid: '201234567890123', phone: '5511988887777' },
              name: 'Maria Silva',
              pushName: 'Maria',
            },
            { identities: { phone: '5511977776666' }, pushName: 'Zé' },
          ],
        },
      },
    ]);
  });
});
