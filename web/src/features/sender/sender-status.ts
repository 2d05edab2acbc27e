/** The sender's one status line (spec: types loading, success and error). */
export interface SenderStatus {
  type: 'loading' | 'success' | 'error';
  text: string;
}
