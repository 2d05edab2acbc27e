import en from '../../../public/locales/en/translation.json';
import type { AutomatedReply, StoredFlowStep } from './api/replies-api';
import {
  addButton,
  addRow,
  addSection,
  buildReplyForm,
  draftFromReply,
  emptyDraft,
  otherTriggers,
  removeButton,
  removeRow,
  removeSection,
  triggerSuggestions,
  validateDraft,
  type ReplyDraft,
} from './reply-draft';

const png = (name = 'photo.png') => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], name, { type: 'image/png' });

/** The multipart fields: JSON fields parsed, files by name. */
function fields(form: FormData): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of form.entries()) {
    if (typeof value !== 'string') out[key] = `file:${value.name}`;
    else if (['quickReplyButtons', 'interactive', 'flow_definitions'].includes(key)) out[key] = JSON.parse(value);
    else out[key] = value;
  }
  return out;
}

const STORED: AutomatedReply = {
  _id: 'r1',
  trigger: 'Hello',
  type: 'text',
  responseText: '',
  caption: 'Our menu',
  isActive: true,
  isDefault: false,
  cooldownHours: 2,
  matchMode: 'starts_with',
  quickReplyButtons: [
    { id: 'prices', title: 'Prices' },
    { id: 'support', title: 'Support' },
  ],
  mediaUrl: '/api/media/m1',
  mediaType: 'image',
  interactive: null,
  flowStepCount: 2,
  updatedAt: '2026-11-21T23:30:00.000Z',
};
const STEPS: StoredFlowStep[] = [
  { trigger: 'prices', responseText: '', caption: 'Price list', quickReplyButtons: [{ id: 'cheap', title: 'Cheap' }], mediaUrl: '/api/media/m2', mediaType: 'document' },
  { trigger: 'cheap', responseText: 'From 5 EUR', caption: '', quickReplyButtons: [], mediaUrl: null, mediaType: null },
];

describe('the automated reply payload', () => {
  it('creates a text reply with buttons, a main file and a two-level flow, sending only complete buttons', () => {
    const draft: ReplyDraft = {
      ...emptyDraft(),
      trigger: '  hello ',
      cooldownHours: '1.5',
      text: 'Welcome!',
      buttons: [
        { id: 'prices', title: 'Prices' },
        { id: 'half', title: '' },
        { id: 'support', title: 'Support' },
      ],
      steps: {
        prices: { text: 'Which one?', buttons: [{ id: 'cheap', title: 'Cheap' }], media: { url: null, file: png('list.png'), preview: 'blob:x', type: 'image', removeMedia: false } },
        cheap: { text: 'From 5 EUR', buttons: [{ id: '', title: '' }], media: emptyDraft().media },
        orphan: { text: 'never reached', buttons: [], media: emptyDraft().media },
        support: { text: 'Opens the other reply', buttons: [], media: emptyDraft().media },
      },
    };
    const form = buildReplyForm(draft, new Set(['support']));
    expect(fields(form)).toEqual({
      trigger: 'hello',
      matchMode: 'exact',
      isActive: 'true',
      isDefault: 'false',
      cooldownHours: '1.5',
      type: 'text',
      responseText: 'Welcome!',
      caption: '',
      removeMedia: 'false',
      quickReplyButtons: [
        { id: 'prices', title: 'Prices' },
        { id: 'support', title: 'Support' },
      ],
      flow_definitions: {
        prices: { responseText: '', caption: 'Which one?', quickReplyButtons: [{ id: 'cheap', title: 'Cheap' }], removeMedia: false },
        cheap: { responseText: 'From 5 EUR', caption: '', quickReplyButtons: [], removeMedia: false },
      },
      'flow_media_prices': 'file:list.png',
    });
  });

  it('edits a stored reply: the text becomes the caption beside media, kept step media goes back by url', () => {
    const draft = draftFromReply(STORED, STEPS);
    expect(draft.text).toBe('Our menu');
    expect(draft.steps.prices?.text).toBe('Price list');
    expect(draft.matchMode).toBe('starts_with');
    expect(fields(buildReplyForm(draft, new Set()))).toEqual({
      trigger: 'Hello',
      matchMode: 'starts_with',
      isActive: 'true',
      isDefault: 'false',
      cooldownHours: '2',
      type: 'text',
      responseText: '',
      caption: 'Our menu',
      removeMedia: 'false',
      quickReplyButtons: STORED.quickReplyButtons,
      flow_definitions: {
        prices: { responseText: '', caption: 'Price list', quickReplyButtons: [{ id: 'cheap', title: 'Cheap' }], mediaUrl: '/api/media/m2', mediaType: 'document', removeMedia: false },
        cheap: { responseText: 'From 5 EUR', caption: '', quickReplyButtons: [], removeMedia: false },
      },
    });
  });

  it('edits media away: removeMedia, the text back as response text, a replaced step file as its own part', () => {
    const draft = draftFromReply(STORED, STEPS);
    draft.media = { ...draft.media, removeMedia: true };
    draft.text = 'Plain now';
    draft.steps.prices = {
      text: 'Price list',
      buttons: [{ id: 'cheap', title: 'Cheap' }],
      media: { url: '/api/media/m2', file: png('new.png'), preview: null, type: 'image', removeMedia: false },
    };
    const sent = fields(buildReplyForm(draft, new Set()));
    expect(sent).toMatchObject({ responseText: 'Plain now', caption: '', removeMedia: 'true', 'flow_media_prices': 'file:new.png' });
    expect((sent.flow_definitions as Record<string, unknown>).prices).toEqual({ responseText: '', caption: 'Price list', quickReplyButtons: [{ id: 'cheap', title: 'Cheap' }], removeMedia: false });
    expect(sent).not.toHaveProperty('main_media_file');
  });

  it('sends a list as interactive JSON (optional footer and descriptions left out) and drops the steps', () => {
    const draft = draftFromReply(STORED, STEPS);
    draft.tab = 'list';
    draft.list = {
      header: 'Menu',
      body: 'Pick one',
      footer: '',
      button: 'Open',
      sections: [{ title: 'Food', rows: [{ id: 'pizza', title: 'Pizza', description: 'Hot' }, { id: 'salad', title: 'Salad', description: ' ' }] }],
    };
    expect(fields(buildReplyForm(draft, new Set()))).toEqual({
      trigger: 'Hello',
      matchMode: 'starts_with',
      isActive: 'true',
      isDefault: 'false',
      cooldownHours: '2',
      type: 'interactive',
      interactive: {
        type: 'list',
        header: { type: 'text', text: 'Menu' },
        body: { text: 'Pick one' },
        action: { button: 'Open', sections: [{ title: 'Food', rows: [{ id: 'pizza', title: 'Pizza', description: 'Hot' }, { id: 'salad', title: 'Salad' }] }] },
      },
      flow_definitions: {},
    });
  });

  it('reads a stored list back into the form', () => {
    const list = {
      type: 'list' as const,
      header: { type: 'text' as const, text: 'Menu' },
      body: { text: 'Pick' },
      footer: { text: 'Thanks' },
      action: { button: 'Open', sections: [{ title: 'Food', rows: [{ id: 'p', title: 'Pizza' }] }] },
    };
    const draft = draftFromReply({ ...STORED, type: 'interactive', interactive: list, mediaUrl: null, mediaType: null, quickReplyButtons: [] }, []);
    expect(draft.tab).toBe('list');
    expect(draft.buttons).toEqual([{ id: '', title: '' }]);
    expect(draft.list).toEqual({ header: 'Menu', body: 'Pick', footer: 'Thanks', button: 'Open', sections: [{ title: 'Food', rows: [{ id: 'p', title: 'Pizza', description: '' }] }] });
  });
});

describe('the automated reply form rules', () => {
  const valid = (): ReplyDraft => ({ ...emptyDraft(), trigger: 'hi', text: 'Hello' });
  const check = (draft: ReplyDraft, others = new Set<string>()) => {
    const found = validateDraft(draft, others);
    if (found) expect(en.replies.errors).toHaveProperty(found.key);
    return found;
  };

  it('checks in the spec order: trigger, cooldown, then the tab', () => {
    expect(check({ ...emptyDraft(), cooldownHours: '-1' })).toEqual({ key: 'triggerRequired' });
    expect(check({ ...emptyDraft(), trigger: 'hi', cooldownHours: '-1' })).toEqual({ key: 'cooldownInvalid' });
    expect(check({ ...emptyDraft(), trigger: 'hi', cooldownHours: 'soon' })).toEqual({ key: 'cooldownInvalid' });
    expect(check({ ...emptyDraft(), trigger: 'hi', cooldownHours: '' })).toEqual({ key: 'cooldownInvalid' });
    expect(check({ ...emptyDraft(), trigger: 'hi', cooldownHours: '0' })).toEqual({ key: 'responseRequired' });
    expect(check({ ...valid(), cooldownHours: '0.5' })).toBeNull();
    expect(check({ ...emptyDraft(), trigger: 'hi', media: { ...emptyDraft().media, file: png(), type: 'image' } })).toBeNull();
  });

  it('allows at most 3 complete buttons, and no flow step on another reply’s trigger', () => {
    const four = ['a', 'b', 'c', 'd'].map((id) => ({ id, title: id.toUpperCase() }));
    expect(check({ ...valid(), buttons: four })).toEqual({ key: 'tooManyButtons', values: { max: 3 } });
    expect(check({ ...valid(), buttons: [...four.slice(0, 3), { id: 'd', title: '' }] })).toBeNull();
    const linked = { ...valid(), buttons: [{ id: 'Support', title: 'Help' }], steps: { Support: { text: 'x', buttons: [], media: emptyDraft().media } } };
    expect(check(linked, new Set(['support']))).toEqual({ key: 'stepOnLinkedTrigger', values: { id: 'Support' } });
    expect(check(linked, new Set(['other']))).toBeNull();
    expect(check({ ...linked, steps: { Support: { text: ' ', buttons: [], media: emptyDraft().media } } })).toEqual({ key: 'stepResponseRequired', values: { id: 'Support' } });
  });

  it('checks a list field by field, then sections and rows', () => {
    const list = (change: Partial<ReplyDraft['list']>): ReplyDraft => ({
      ...valid(),
      tab: 'list',
      list: { header: 'H', body: 'B', footer: '', button: 'Open', sections: [{ title: 'S', rows: [{ id: 'r', title: 'R', description: '' }] }], ...change },
    });
    expect(check(list({ header: ' ', body: '' }))).toEqual({ key: 'listHeaderRequired' });
    expect(check(list({ body: '' , button: ''}))).toEqual({ key: 'listBodyRequired' });
    expect(check(list({ button: '' }))).toEqual({ key: 'listButtonRequired' });
    expect(check(list({ sections: [] }))).toEqual({ key: 'listNeedsSection' });
    const row = { id: 'r', title: 'R', description: '' };
    const section = { title: 'S', rows: [row] };
    expect(check(list({ sections: Array.from({ length: 11 }, () => section) }))).toEqual({ key: 'tooManySections', values: { max: 10 } });
    expect(check(list({ sections: [section, { ...section, title: '' }] }))).toEqual({ key: 'sectionTitleRequired', values: { n: 2 } });
    expect(check(list({ sections: [{ ...section, rows: [] }] }))).toEqual({ key: 'sectionNeedsRow', values: { n: 1 } });
    expect(check(list({ sections: [{ ...section, rows: Array.from({ length: 11 }, () => row) }] }))).toEqual({ key: 'tooManyRows', values: { n: 1, max: 10 } });
    expect(check(list({ sections: [{ ...section, rows: [row, { id: 'x', title: '', description: 'optional' }] }] }))).toEqual({
      key: 'rowIdTitleRequired',
      values: { n: 1, m: 2 },
    });
    expect(check(list({ footer: '', sections: [{ ...section, rows: [{ id: 'r', title: 'R', description: '' }] }] }))).toBeNull();
  });

  it('refuses a media file of another type', () => {
    const zip = new File(['PK'], 'archive.zip', { type: 'application/zip' });
    expect(check({ ...valid(), media: { ...emptyDraft().media, file: zip, type: 'document' } })).toEqual({ key: 'mediaType' });
    const sheet = new File(['PK'], 'prices.XLSX', { type: '' });
    expect(check({ ...valid(), media: { ...emptyDraft().media, file: sheet, type: 'document' } })).toBeNull();
  });
});

describe('the automated reply editing helpers', () => {
  it('keeps 1 to 3 buttons: removing the last leaves one empty', () => {
    const three = addButton(addButton([{ id: 'a', title: 'A' }]));
    expect(three).toHaveLength(3);
    expect(addButton(three)).toBe(three);
    expect(removeButton([{ id: 'a', title: 'A' }], 0)).toEqual([{ id: '', title: '' }]);
  });

  it('keeps 1 to 10 sections and 1 to 10 rows', () => {
    let list = emptyDraft().list;
    for (let i = 0; i < 12; i += 1) list = addSection(list);
    expect(list.sections).toHaveLength(10);
    const row = { id: 'r', title: 'R', description: '' };
    let section = { title: 'S', rows: [row] };
    expect(removeRow(section, 0).rows).toEqual([row]);
    for (let i = 0; i < 12; i += 1) section = addRow(section);
    expect(section.rows).toHaveLength(10);
    expect(removeRow(section, 0).rows).toHaveLength(9);
    expect(removeSection({ ...list, sections: [section] }, 0).sections).toHaveLength(1);
  });

  it('suggests quick-reply texts of approved templates only, once each', () => {
    const buttons = (...texts: string[]) => [{ type: 'BUTTONS', buttons: texts.map((text) => ({ type: 'QUICK_REPLY', text })) }];
    expect(
      triggerSuggestions([
        { name: 'a', status: 'APPROVED', components: [{ type: 'BODY' }, ...buttons('Yes', 'Stop')] },
        { name: 'b', status: 'APPROVED', components: [{ type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Site' }, { type: 'QUICK_REPLY', text: 'Yes' }] }] },
        { name: 'c', status: 'PENDING', components: buttons('Maybe') },
      ]),
    ).toEqual(['Yes', 'Stop']);
  });

  it('lists the other replies’ triggers lower-cased, without the one being edited', () => {
    const replies = [STORED, { ...STORED, _id: 'r2', trigger: ' Support ' }];
    expect(otherTriggers(replies, 'r1')).toEqual(new Set(['support']));
    expect(otherTriggers(replies, null)).toEqual(new Set(['hello', 'support']));
  });
});
