// A form's optional file (an automated reply's, a flow step's, a canned reply's): the stored one,
// a newly chosen one, or none; and which kind of media a chosen file is.

export type MediaType = 'image' | 'video' | 'audio' | 'document';

const DOCUMENT_EXTENSIONS = ['pdf', 'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx'];
/** The file picker's filter: image, video, audio, pdf, doc, docx, xls, xlsx, ppt, pptx. */
export const MEDIA_ACCEPT = ['image/*', 'video/*', 'audio/*', ...DOCUMENT_EXTENSIONS.map((ext) => `.${ext}`)].join(',');

/** A stored file (url), a newly chosen one (file), or none. */
export interface MediaDraft {
  url: string | null;
  file: File | null;
  /** An object URL of the chosen file, shown until the form closes. */
  preview: string | null;
  type: MediaType | null;
  /** The stored file is dropped on save. */
  removeMedia: boolean;
}

export const NO_MEDIA: MediaDraft = { url: null, file: null, preview: null, type: null, removeMedia: false };

/** The media type the server gives a file, or null for a type that cannot be sent. */
export function mediaTypeOf(file: Pick<File, 'type' | 'name'>): MediaType | null {
  const kind = file.type.split('/')[0];
  if (kind === 'image' || kind === 'video' || kind === 'audio') return kind;
  const extension = file.name.split('.').pop()?.toLowerCase() ?? '';
  return DOCUMENT_EXTENSIONS.includes(extension) ? 'document' : null;
}

export const hasMedia = (media: MediaDraft) => media.file !== null || (media.url !== null && !media.removeMedia);
