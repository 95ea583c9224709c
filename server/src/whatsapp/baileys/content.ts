// Port send requests → Baileys message content, kept apart from the socket lifecycle.
import type { AnyMessageContent, WAMediaUpload } from 'baileys';
import type { ContactCard, Location, OutboundMedia } from '../port.js';

/** A bare phone number becomes a user JID; anything else is already a chat address. */
export function toJid(target: string): string {
  return /^\d+$/.test(target) ? `${target}@s.whatsapp.net` : target;
}

const upload = (data: OutboundMedia['data']): WAMediaUpload =>
  data instanceof Uint8Array ? Buffer.from(data) : { url: data.path };

export function mediaContent(media: OutboundMedia): AnyMessageContent {
  const { mimetype } = media;
  const caption = media.caption ? { caption: media.caption } : {};
  switch (media.kind) {
    case 'image':
      return { image: upload(media.data), mimetype, ...caption };
    case 'video':
      return { video: upload(media.data), mimetype, ...caption };
    case 'audio':
      return { audio: upload(media.data), mimetype, ptt: media.voiceNote === true };
    case 'document':
      return {
        document: upload(media.data),
        mimetype,
        fileName: media.fileName ?? 'file',
        ...caption,
      };
  }
}

export function locationContent(location: Location): AnyMessageContent {
  return {
    location: {
      degreesLatitude: location.latitude,
      degreesLongitude: location.longitude,
      ...(location.name && { name: location.name }),
      ...(location.address && { address: location.address }),
    },
  };
}

/** vCard 3.0 with the `waid` WhatsApp uses to offer "message" on the card. */
export function vcardOf(card: ContactCard): string {
  const name = card.name.replace(/[\r\n]/g, ' ');
  return [
    'BEGIN:VCARD',
    'VERSION:3.0',
    `FN:${name}`,
    `TEL;type=CELL;waid=${card.phone}:+${card.phone}`,
    'END:VCARD',
  ].join('\n');
}

export function contactsContent(cards: ContactCard[]): AnyMessageContent {
  const first = cards[0]?.name ?? '';
  return {
    contacts: {
      displayName: cards.length === 1 ? first : `${cards.length} contacts`,
      contacts: cards.map((card) => ({ displayName: card.name, vcard: vcardOf(card) })),
    },
  };
}
