// What the simulated network hands the platform for a customer's message, in port terms.
import type { Identities, MediaRef, MessageType, PortMessage } from '../port.js';
import { chatIdOf } from './network.js';
import type { SimInbound } from './network.js';

export function kindOf(mimetype: string): Exclude<MessageType, 'chat'> & MediaRef['kind'] {
  if (mimetype === 'image/webp') return 'sticker';
  if (mimetype.startsWith('image/')) return 'image';
  if (mimetype.startsWith('audio/')) return 'audio';
  if (mimetype.startsWith('video/')) return 'video';
  return 'document';
}

/** Who a chat address is: a phone (s.whatsapp.net) or a LID. */
export function identitiesOfChat(chatId: string): Identities {
  const [user = '', server] = chatId.split('@');
  if (server === 'lid') return { lid: user };
  if (server === 'g.us') return {};
  return { phone: user };
}

export function toPortMessage(
  connectionId: string,
  inbound: SimInbound,
  offline: boolean,
): PortMessage {
  const person: Identities = { phone: inbound.from.replace(/\D/g, '') };
  if (inbound.lid) person.lid = inbound.lid;
  const personChat = inbound.lid ? `${inbound.lid}@lid` : chatIdOf(person.phone!);
  const groupChat = inbound.group ? `${inbound.group.id.replace(/@.*$/, '')}@g.us` : undefined;
  const message: PortMessage = {
    connectionId,
    id: inbound.id,
    fromMe: false,
    chatId: groupChat ?? personChat,
    contact: person,
    type: inbound.media ? kindOf(inbound.media.mimetype) : 'chat',
    body: inbound.body,
    timestamp: inbound.at,
    isGroup: Boolean(groupChat),
    offline,
  };
  if (inbound.name) message.pushName = inbound.name;
  if (inbound.quotedId) message.quotedId = inbound.quotedId;
  if (inbound.media) {
    const { mimetype, fileName, size, locator } = inbound.media;
    message.media = { kind: kindOf(mimetype), mimetype, fileLength: size, locator };
    if (fileName) message.media.fileName = fileName;
    if (message.media.kind === 'audio' && mimetype.includes('ogg')) {
      message.media.voiceNote = true;
    }
  }
  if (groupChat) {
    message.group = { id: groupChat };
    if (inbound.group?.subject) message.group.subject = inbound.group.subject;
    message.participant = person;
  }
  return message;
}
