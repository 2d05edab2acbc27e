import { deepLinkConversation } from './deep-links';

describe('deep links', () => {
  it.each([
    ['https://inbox.example.com/whatsapp?conversation_id=1555_15550001111', '1555_15550001111'],
    ['https://inbox.example.com/app/whatsapp/?conversation_id=a%2Bb', 'a+b'],
    ['parley://whatsapp?conversation_id=1555_US.1349', '1555_US.1349'],
  ])('opens the conversation of %s', (link, id) => {
    expect(deepLinkConversation(link)).toBe(id);
  });

  it.each([
    'https://inbox.example.com/whatsapp',
    'https://inbox.example.com/template?conversation_id=1555_1',
    'not a url',
  ])('opens nothing for %s', (link) => {
    expect(deepLinkConversation(link)).toBeNull();
  });
});
