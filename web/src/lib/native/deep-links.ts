// Deep links into the native app (App Links / universal links on the server's host, and the
// parley:// scheme): a URL whose path contains /whatsapp and carries conversation_id opens that
// conversation, through the app's usual rule for a conversation_id.
import type { PluginListenerHandle } from '@capacitor/core';

/** The conversation a deep link opens, or null when it opens none. */
export function deepLinkConversation(link: string): string | null {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return null;
  }
  // parley://whatsapp?… parses with `whatsapp` as its host.
  const path = url.protocol === 'https:' || url.protocol === 'http:' ? url.pathname : `/${url.host}${url.pathname}`;
  const id = url.searchParams.get('conversation_id');
  return path.includes('/whatsapp') && id ? id : null;
}

/** Calls `open` with the conversation of each deep link the app is opened with. */
export async function listenForDeepLinks(open: (conversationId: string) => void): Promise<PluginListenerHandle> {
  const { App } = await import('@capacitor/app');
  return App.addListener('appUrlOpen', ({ url }) => {
    const id = deepLinkConversation(url);
    if (id) open(id);
  });
}
