import ar from '../../../public/locales/ar/translation.json';
import en from '../../../public/locales/en/translation.json';
import type { Message } from '../../lib/api/types';
import { KNOWN_CODES, errorOfMessage, readError } from './whatsapp-errors';

const REENGAGEMENT = {
  code: 131047,
  title: 'Re-engagement message',
  message: 'Re-engagement message',
  error_data: { details: 'Message failed to send because more than 24 hours have passed since the customer last replied to this number.' },
  href: 'https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes/',
};

const lookUp = (tree: unknown, key: string): unknown => key.split('.').reduce((node, part) => (node as Record<string, unknown> | undefined)?.[part], tree);

const outgoing = (status: Message['status'], error?: unknown): Message => ({
  message_id: 'wamid.1',
  timestamp: '2026-03-04T09:05:00Z',
  status,
  direction: 'outgoing',
  type: 'text',
  content: { text: 'Hello' },
  error,
});

describe("WhatsApp's errors", () => {
  it.each([131047, 470, 131026, 131051, 131052, 131053, 130429, 131056, 131048, 131049, 132000, 132001, 132005, 132007, 132012, 132015, 132016, 131000, 131008, 131009, 131031, 368])(
    'know %i, with a sentence in English and Arabic',
    (code) => {
      const reading = readError({ code, title: 'Anything' });
      expect(reading?.key).toMatch(/^whatsappErrors\.codes\./);
      for (const translations of [en, ar]) expect(lookUp(translations, reading!.key!)).toEqual(expect.stringMatching(/\S/));
    },
  );

  it('have a sentence for every code they know, different in Arabic', () => {
    const names = [...new Set(Object.values(KNOWN_CODES))];
    const sentences = (translations: unknown) => names.map((name) => [name, typeof lookUp(translations, `whatsappErrors.codes.${name}`)]);
    expect(sentences(en)).toEqual(names.map((name) => [name, 'string']));
    expect(sentences(ar)).toEqual(names.map((name) => [name, 'string']));
    for (const name of names) expect(lookUp(ar, `whatsappErrors.codes.${name}`)).not.toBe(lookUp(en, `whatsappErrors.codes.${name}`));
  });

  it("keep WhatsApp's title, message and details once each", () => {
    expect(readError(REENGAGEMENT)).toEqual({
      code: 131047,
      key: 'whatsappErrors.codes.reengagement',
      words: ['Re-engagement message', REENGAGEMENT.error_data.details],
    });
  });

  it('read an unknown code by its title, and a refusal the server worded', () => {
    expect(readError({ code: 135000, title: 'Generic user error' })).toEqual({ code: 135000, key: null, words: ['Generic user error'] });
    expect(readError({ code: 131047, title: 'The 24-hour customer service window is closed (131047): Message failed to send' })?.key).toBe(
      'whatsappErrors.codes.reengagement',
    );
    expect(readError({ code: '131056', title: 'Pair rate limit hit' })?.code).toBe(131056);
  });

  it("take Parley's code 0 (provider unreachable, not set up) as no code", () => {
    expect(readError({ code: 0, title: 'The provider could not be reached: timeout' })).toEqual({
      code: null,
      key: null,
      words: ['The provider could not be reached: timeout'],
    });
  });

  it('find nothing in what is no error', () => {
    for (const value of [undefined, null, 'failed', 42, {}, { code: 0 }, { title: '  ' }]) expect(readError(value)).toBeNull();
  });

  it("show a failed send's error only while it stands failed, and a customer's message's first error", () => {
    expect(errorOfMessage(outgoing('failed', REENGAGEMENT))).toBe(REENGAGEMENT);
    expect(errorOfMessage(outgoing('delivered', REENGAGEMENT))).toBeNull();
    const incoming: Message = { ...outgoing('delivered'), direction: 'incoming', content: { errors: [{ code: 131051, title: 'Message type unknown' }] } };
    expect(errorOfMessage(incoming)).toEqual({ code: 131051, title: 'Message type unknown' });
  });
});
