// The automated reply form as plain data (spec sections 3, 5 and 7): the draft the form edits,
// its checks in the spec's order, and the multipart body the server reads. Pure, so the rules
// are tested without rendering.
import type {
  AutomatedReply,
  MatchMode,
  InteractiveListPayload,
  ListRowDraft,
  ListSectionDraft,
  ReplyButton,
  StoredFlowStep,
  TemplateSummary,
} from './api/replies-api';
import { hasMedia, mediaTypeOf, NO_MEDIA, type MediaDraft, type MediaType } from '../../lib/media/media-draft';

export const MAX_BUTTONS = 3;
export const MAX_SECTIONS = 10;
export const MAX_ROWS = 10;
/** The Cloud API's limit on a reply button's title (the server refuses longer ones). */
export const BUTTON_TITLE_MAX = 20;

/** A flow step, keyed in the draft by the button id that opens it. */
export interface StepDraft {
  /** The response text, or the optional caption when media is attached. */
  text: string;
  buttons: ReplyButton[];
  media: MediaDraft;
}

export interface ListDraft {
  header: string;
  body: string;
  footer: string;
  button: string;
  sections: ListSectionDraft[];
}

export type ReplyTab = 'standard' | 'list';

export interface ReplyDraft {
  tab: ReplyTab;
  trigger: string;
  matchMode: MatchMode;
  cooldownHours: string;
  isActive: boolean;
  isDefault: boolean;
  /** The response text, or the optional caption when media is attached. */
  text: string;
  media: MediaDraft;
  buttons: ReplyButton[];
  steps: Record<string, StepDraft>;
  list: ListDraft;
}

/** A broken rule: a translation key under `replies.errors` and its values. */
export interface DraftError {
  key: string;
  values?: Record<string, string | number>;
}

const EMPTY_BUTTON: ReplyButton = { id: '', title: '' };
const emptyRow = (): ListRowDraft => ({ id: '', title: '', description: '' });
const emptySection = (): ListSectionDraft => ({ title: '', rows: [emptyRow()] });

export function emptyDraft(): ReplyDraft {
  return {
    tab: 'standard',
    trigger: '',
    matchMode: 'exact',
    cooldownHours: '0',
    isActive: true,
    isDefault: false,
    text: '',
    media: NO_MEDIA,
    buttons: [EMPTY_BUTTON],
    steps: {},
    list: { header: '', body: '', footer: '', button: '', sections: [emptySection()] },
  };
}

function storedMedia(url: string | null, type: MediaType | null): MediaDraft {
  return { ...NO_MEDIA, url, type: url ? type : null };
}

/** With media the text field is the caption, otherwise the response text. */
function storedText(media: string | null, responseText: string, caption: string): string {
  return media ? caption || responseText : responseText;
}

const buttonsOrOne = (buttons: ReplyButton[]) => (buttons.length > 0 ? buttons.map((b) => ({ ...b })) : [EMPTY_BUTTON]);

/** The draft of a stored reply and its flow steps, for editing. */
export function draftFromReply(reply: AutomatedReply, steps: StoredFlowStep[]): ReplyDraft {
  const list = reply.interactive;
  return {
    ...emptyDraft(),
    tab: reply.type === 'interactive' ? 'list' : 'standard',
    trigger: reply.trigger,
    matchMode: reply.matchMode ?? 'exact',
    cooldownHours: String(reply.cooldownHours),
    isActive: reply.isActive,
    isDefault: reply.isDefault,
    text: storedText(reply.mediaUrl, reply.responseText, reply.caption),
    media: storedMedia(reply.mediaUrl, reply.mediaType),
    buttons: buttonsOrOne(reply.quickReplyButtons),
    steps: Object.fromEntries(
      steps.map((step) => [
        step.trigger,
        {
          text: storedText(step.mediaUrl, step.responseText, step.caption),
          buttons: buttonsOrOne(step.quickReplyButtons),
          media: storedMedia(step.mediaUrl, step.mediaType),
        },
      ]),
    ),
    list: list
      ? {
          header: list.header?.text ?? '',
          body: list.body?.text ?? '',
          footer: list.footer?.text ?? '',
          button: list.action?.button ?? '',
          sections: list.action.sections.map((section) => ({
            title: section.title,
            rows: section.rows.map((row) => ({ id: row.id, title: row.title, description: row.description ?? '' })),
          })),
        }
      : emptyDraft().list,
  };
}

/** Quick-reply button texts of APPROVED templates, without repeats, as trigger suggestions. */
export function triggerSuggestions(templates: TemplateSummary[]): string[] {
  const texts = templates
    .filter((template) => template.status === 'APPROVED')
    .flatMap((template) => template.components.filter((component) => component.type.toUpperCase() === 'BUTTONS'))
    .flatMap((component) => component.buttons ?? [])
    .filter((button) => button.type === 'QUICK_REPLY')
    .map((button) => button.text?.trim() ?? '')
    .filter(Boolean);
  return [...new Set(texts)];
}

/** The lower-cased triggers of the other replies: a button with such an id opens that reply. */
export function otherTriggers(replies: AutomatedReply[], editingId: string | null): Set<string> {
  return new Set(replies.filter((reply) => reply._id !== editingId).map((reply) => triggerKey(reply.trigger)));
}

export const triggerKey = (trigger: string) => trigger.trim().toLowerCase();

export function addButton(buttons: ReplyButton[]): ReplyButton[] {
  return buttons.length < MAX_BUTTONS ? [...buttons, EMPTY_BUTTON] : buttons;
}

/** Removing the last button leaves one empty one. */
export function removeButton(buttons: ReplyButton[], index: number): ReplyButton[] {
  const left = buttons.filter((_, i) => i !== index);
  return left.length > 0 ? left : [EMPTY_BUTTON];
}

/** Only buttons with both id and title are sent. */
export function sendableButtons(buttons: ReplyButton[]): ReplyButton[] {
  return buttons.map((b) => ({ id: b.id.trim(), title: b.title.trim() })).filter((b) => b.id && b.title);
}

export function addSection(list: ListDraft): ListDraft {
  return list.sections.length < MAX_SECTIONS ? { ...list, sections: [...list.sections, emptySection()] } : list;
}

/** A list keeps at least one section. */
export function removeSection(list: ListDraft, index: number): ListDraft {
  return list.sections.length > 1 ? { ...list, sections: list.sections.filter((_, i) => i !== index) } : list;
}

export function addRow(section: ListSectionDraft): ListSectionDraft {
  return section.rows.length < MAX_ROWS ? { ...section, rows: [...section.rows, emptyRow()] } : section;
}

/** A section keeps at least one row. */
export function removeRow(section: ListSectionDraft, index: number): ListSectionDraft {
  return section.rows.length > 1 ? { ...section, rows: section.rows.filter((_, i) => i !== index) } : section;
}


/**
 * The flow steps the reply's buttons reach (directly or through other steps), in that order.
 * A button whose id is another reply's trigger opens that reply, not a step.
 */
export function reachableSteps(draft: ReplyDraft, others: Set<string>): [string, StepDraft][] {
  if (draft.tab === 'list') return [];
  const found: [string, StepDraft][] = [];
  const queue = sendableButtons(draft.buttons).map((b) => b.id);
  const seen = new Set<string>();
  while (queue.length > 0) {
    const id = queue.shift() as string;
    const step = draft.steps[id];
    if (seen.has(id) || !step || others.has(triggerKey(id))) continue;
    seen.add(id);
    found.push([id, step]);
    queue.push(...sendableButtons(step.buttons).map((b) => b.id));
  }
  return found;
}

function listError(list: ListDraft): DraftError | null {
  if (!list.header.trim()) return { key: 'listHeaderRequired' };
  if (!list.body.trim()) return { key: 'listBodyRequired' };
  if (!list.button.trim()) return { key: 'listButtonRequired' };
  if (list.sections.length === 0) return { key: 'listNeedsSection' };
  if (list.sections.length > MAX_SECTIONS) return { key: 'tooManySections', values: { max: MAX_SECTIONS } };
  for (const [i, section] of list.sections.entries()) {
    const n = i + 1;
    if (!section.title.trim()) return { key: 'sectionTitleRequired', values: { n } };
    if (section.rows.length === 0) return { key: 'sectionNeedsRow', values: { n } };
    if (section.rows.length > MAX_ROWS) return { key: 'tooManyRows', values: { n, max: MAX_ROWS } };
    for (const [j, row] of section.rows.entries()) {
      if (!row.id.trim() || !row.title.trim()) return { key: 'rowIdTitleRequired', values: { n, m: j + 1 } };
    }
  }
  return null;
}

/** The first broken rule of the standard tab: buttons, links and steps, then the texts. */
function standardError(draft: ReplyDraft, others: Set<string>): DraftError | null {
  if (!draft.text.trim() && !hasMedia(draft.media)) return { key: 'responseRequired' };
  const steps = reachableSteps(draft, others);
  for (const buttons of [draft.buttons, ...steps.map(([, step]) => step.buttons)]) {
    if (sendableButtons(buttons).length > MAX_BUTTONS) return { key: 'tooManyButtons', values: { max: MAX_BUTTONS } };
  }
  // A step built earlier for an id that is now another reply's trigger would never be sent.
  const linked = [draft.buttons, ...steps.map(([, step]) => step.buttons)]
    .flatMap(sendableButtons)
    .find((b) => draft.steps[b.id] && others.has(triggerKey(b.id)));
  if (linked) return { key: 'stepOnLinkedTrigger', values: { id: linked.id } };
  const empty = steps.find(([, step]) => !step.text.trim() && !hasMedia(step.media));
  if (empty) return { key: 'stepResponseRequired', values: { id: empty[0] } };
  return null;
}

/** The first broken rule, checked in the spec's order (section 5), or null. */
export function validateDraft(draft: ReplyDraft, others: Set<string>): DraftError | null {
  if (!draft.trigger.trim()) return { key: 'triggerRequired' };
  const hours = draft.cooldownHours.trim();
  if (hours === '' || !Number.isFinite(Number(hours)) || Number(hours) < 0) return { key: 'cooldownInvalid' };
  const problem = draft.tab === 'list' ? listError(draft.list) : standardError(draft, others);
  if (problem) return problem;
  const files = [draft.media, ...reachableSteps(draft, others).map(([, step]) => step.media)].map((m) => m.file);
  if (draft.tab === 'standard' && files.some((file) => file && !mediaTypeOf(file))) return { key: 'mediaType' };
  return null;
}

export function listPayload(list: ListDraft): InteractiveListPayload {
  const footer = list.footer.trim();
  return {
    type: 'list',
    header: { type: 'text', text: list.header.trim() },
    body: { text: list.body.trim() },
    ...(footer ? { footer: { text: footer } } : {}),
    action: {
      button: list.button.trim(),
      sections: list.sections.map((section) => ({
        title: section.title.trim(),
        rows: section.rows.map((row) => ({
          id: row.id.trim(),
          title: row.title.trim(),
          ...(row.description.trim() ? { description: row.description.trim() } : {}),
        })),
      })),
    },
  };
}

/** The response text and caption a text field stands for. */
function texts(text: string, media: MediaDraft) {
  return hasMedia(media) ? { responseText: '', caption: text.trim() } : { responseText: text.trim(), caption: '' };
}

/**
 * The multipart body of POST /api/automated-replies/ and PATCH /api/automated-replies/{id}
 * (spec section 7). `flow_definitions` always goes, so an edit that drops steps drops them.
 */
export function buildReplyForm(draft: ReplyDraft, others: Set<string>): FormData {
  const form = new FormData();
  form.append('trigger', draft.trigger.trim());
  form.append('matchMode', draft.matchMode);
  form.append('isActive', String(draft.isActive));
  form.append('isDefault', String(draft.isDefault));
  form.append('cooldownHours', String(Number(draft.cooldownHours)));
  if (draft.tab === 'list') {
    form.append('type', 'interactive');
    form.append('interactive', JSON.stringify(listPayload(draft.list)));
  } else {
    const { responseText, caption } = texts(draft.text, draft.media);
    form.append('type', 'text');
    form.append('responseText', responseText);
    form.append('caption', caption);
    form.append('removeMedia', String(draft.media.removeMedia && !draft.media.file));
    form.append('quickReplyButtons', JSON.stringify(sendableButtons(draft.buttons)));
    if (draft.media.file) form.append('main_media_file', draft.media.file);
  }
  const steps = reachableSteps(draft, others);
  const definitions = Object.fromEntries(
    steps.map(([id, step]) => {
      const kept = step.media.url && !step.media.removeMedia && !step.media.file;
      return [
        id,
        {
          ...texts(step.text, step.media),
          quickReplyButtons: sendableButtons(step.buttons),
          ...(kept ? { mediaUrl: step.media.url, mediaType: step.media.type } : {}),
          removeMedia: step.media.removeMedia && !step.media.file,
        },
      ];
    }),
  );
  form.append('flow_definitions', JSON.stringify(definitions));
  for (const [id, step] of steps) if (step.media.file) form.append(`flow_media_${id}`, step.media.file);
  return form;
}
