import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { db, DB_NAME, DB_VERSION, getThumbnail, onUpgradeBlocked, putThumbnail } from './db';

describe('the local database', () => {
  it('upgrades a version-6 database (still open in another tab) to 7, adding pending-messages', async () => {
    // Version 6 as an older app left it: no pending-messages, and the tab keeps it open.
    const old = await openDB(DB_NAME, 6, {
      upgrade(database) {
        database.createObjectStore('users', { keyPath: 'phone_number' });
        database.createObjectStore('messages', { keyPath: 'message_id' });
      },
    });
    const blocked = vi.fn<() => void>(() => old.close());
    onUpgradeBlocked(blocked);

    const database = await db();

    expect(blocked).toHaveBeenCalledTimes(1);
    expect(database.version).toBe(DB_VERSION);
    expect(DB_VERSION).toBe(7);
    expect([...database.objectStoreNames].sort()).toEqual(['conversations', 'media', 'messages', 'pending-messages', 'thumbnails', 'users']);
    expect([...database.transaction('messages').store.indexNames]).toEqual(['conversation_id']);
    expect(database.transaction('pending-messages').store.keyPath).toBe('tempMessageId');
    expect(database.transaction('thumbnails').store.keyPath).toBe('mediaUrl');
  });

  it('keeps thumbnails with their page count by media URL', async () => {
    const image = await new Response('png bytes').blob();
    await putThumbnail('/api/media/9', { image, pages: 2 });

    const stored = await getThumbnail('/api/media/9');
    expect(stored?.pages).toBe(2);
    expect(await stored?.image.text()).toBe('png bytes');
    expect(await getThumbnail('/api/media/10')).toBeUndefined();
  });
});
