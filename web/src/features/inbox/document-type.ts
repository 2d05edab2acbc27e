// File extensions derived from MIME types (spec section 9); anything else is "bin".
const EXTENSIONS: Record<string, string> = {
  'application/pdf': 'pdf',
  'application/msword': 'doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.ms-excel': 'xls',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.ms-powerpoint': 'ppt',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
  'text/plain': 'txt',
  'application/zip': 'zip',
  'application/x-rar-compressed': 'rar',
  'application/vnd.rar': 'rar',
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'audio/mpeg': 'mp3',
  'video/mp4': 'mp4',
};

export function extensionOf(mimeType: string | undefined): string {
  return (mimeType && EXTENSIONS[mimeType.split(';')[0]?.trim().toLowerCase() ?? '']) || 'bin';
}
