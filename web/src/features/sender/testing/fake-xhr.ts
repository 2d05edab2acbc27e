// An XMLHttpRequest stand-in for unit tests: it sends through the (faked) global fetch, so the
// routes of testing/fake-server.ts answer uploads too, and reports the whole body as uploaded.

class FakeXhr {
  upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  status = 0;
  statusText = '';
  responseText = '';
  private method = 'GET';
  private url = '';
  private headers: Record<string, string> = {};

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }

  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }

  abort() {
    this.onabort?.();
  }

  send(body?: BodyInit) {
    this.upload.onprogress?.(new ProgressEvent('progress', { lengthComputable: true, loaded: 10, total: 10 }));
    fetch(this.url, { method: this.method, headers: this.headers, body })
      .then(async (response) => {
        this.status = response.status;
        this.statusText = response.statusText;
        this.responseText = await response.text();
        this.onload?.();
      })
      .catch(() => this.onerror?.());
  }
}

export function stubXhr() {
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
}
