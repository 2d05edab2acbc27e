// The local database of the spec (section 3): whatsapp-clone-db, version 7. It is opened with `idb`
// rather than localforage because the messages store needs an index on conversation_id and all six
// stores must live in one versioned database; localforage keeps one unindexed key-value store per
// instance and manages the version number itself. The page and the service worker both use it.
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { Conversation, Message, MessageContext } from '../api/types';

export const DB_NAME = 'whatsapp-clone-db';
export const DB_VERSION = 7;

/** An outgoing message waiting for the network (spec: "Pending outgoing message"). */
export interface PendingMessage {
  tempMessageId: string;
  /**
   * The account that wrote it (`{business id}:{user id}`, see `accountOf`): only that account
   * sees and sends it, so accounts sharing a browser profile never send each other's messages.
   */
  account: string;
  to: string;
  phoneNumber: string;
  phoneNumberId: string;
  message_type: string;
  text?: string;
  file?: Blob;
  filename?: string;
  caption?: string;
  originalTimestamp: string;
  conversation_id?: string;
  senderName: string;
  retryCount: number;
  status: 'pending' | 'sending' | 'failed';
  /** A quoted reply: the message it answers. */
  context?: MessageContext;
  /** Sent with `take_over`: the user agreed to take the conversation from the teammate holding it. */
  takeOver?: boolean;
  /** When a sender (this page, another tab, the worker) took it; the claim lapses after a minute. */
  claimedAt?: number;
  /** Why the server refused it for good (its words), while it stands failed. */
  failure?: string;
}

export interface ParleyDb extends DBSchema {
  users: { key: string; value: Conversation };
  messages: { key: string; value: Message; indexes: { conversation_id: string } };
  conversations: { key: string; value: Conversation };
  media: { key: string; value: { url: string; blob: Blob } };
  thumbnails: { key: string; value: { mediaUrl: string } & Thumbnail };
  'pending-messages': { key: string; value: PendingMessage };
}

let blockedHandler: () => void = () => undefined;

/** What to do when another tab keeps an older version open and blocks the upgrade. */
export function onUpgradeBlocked(handler: () => void): void {
  blockedHandler = handler;
}

let opening: Promise<IDBPDatabase<ParleyDb>> | null = null;

export function db(): Promise<IDBPDatabase<ParleyDb>> {
  opening ??= openDB<ParleyDb>(DB_NAME, DB_VERSION, {
    upgrade(database, oldVersion, _newVersion, transaction) {
      // Each store is created when missing, so any older version (pending-messages arrived in 7)
      // upgrades in one step.
      const names = database.objectStoreNames;
      if (!names.contains('users')) database.createObjectStore('users', { keyPath: 'phone_number' });
      if (!names.contains('messages')) database.createObjectStore('messages', { keyPath: 'message_id' });
      const messages = transaction.objectStore('messages');
      if (!messages.indexNames.contains('conversation_id')) messages.createIndex('conversation_id', 'conversation_id');
      if (!names.contains('conversations')) database.createObjectStore('conversations', { keyPath: 'phone_number' });
      if (!names.contains('media')) database.createObjectStore('media', { keyPath: 'url' });
      if (!names.contains('thumbnails')) database.createObjectStore('thumbnails', { keyPath: 'mediaUrl' });
      if (oldVersion < 7 && !names.contains('pending-messages')) {
        database.createObjectStore('pending-messages', { keyPath: 'tempMessageId' });
      }
    },
    blocked() {
      blockedHandler();
    },
    blocking() {
      // A newer version wants to open in another tab: step aside so its upgrade can run.
      void opening?.then((database) => database.close());
      opening = null;
    },
  });
  return opening;
}

/** A drawn thumbnail: a PDF's first page (with its page count) or a video's first frame. */
export interface Thumbnail {
  image: Blob;
  pages?: number;
}

export async function getThumbnail(key: string): Promise<Thumbnail | undefined> {
  const row = await (await db()).get('thumbnails', key);
  return row && { image: row.image, pages: row.pages };
}

export async function putThumbnail(key: string, thumbnail: Thumbnail): Promise<void> {
  await (await db()).put('thumbnails', { mediaUrl: key, ...thumbnail });
}
