import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { fakeServer, json } from '../../../testing/fake-server';
import { renderWithApp } from '../../../testing/render';
import type { Overview, ReportNumbers } from '../api/reports-api';
import { ReportsPage } from './reports-page';

// jsdom has no matchMedia, which uPlot reads when it loads (for the pixel ratio).
vi.hoisted(() => {
  window.matchMedia ??= (query: string) =>
    ({ matches: false, media: query, addEventListener: () => undefined, removeEventListener: () => undefined }) as unknown as MediaQueryList;
});

const ZERO: ReportNumbers = {
  conversations_opened: 0,
  conversations_resolved: 0,
  messages_in: 0,
  messages_out: 0,
  first_response_median_secs: null,
  first_response_p90_secs: null,
  resolution_median_secs: null,
  resolution_p90_secs: null,
};

const BUSY: Overview = {
  from: '2026-03-01T00:00:00+00:00',
  to: '2026-03-03T00:00:00+00:00',
  bucket: 'day',
  tz: 'UTC',
  buckets: [
    { ...ZERO, start: '2026-03-01T00:00:00+00:00', conversations_opened: 3, messages_in: 5, messages_out: 2, first_response_median_secs: 90 },
    { ...ZERO, start: '2026-03-02T00:00:00+00:00', conversations_resolved: 2 },
  ],
  agents: [{ user_id: 'u1', name: 'Sara Agent', conversations_handled: 2, first_response_median_secs: 90 }],
  totals: { ...ZERO, conversations_opened: 3, conversations_resolved: 2, messages_in: 5, messages_out: 2, first_response_median_secs: 90 },
};

/**
 * jsdom has no 2D canvas: a context and paths whose drawing calls do nothing, so uPlot's own code
 * runs. Installed once for this file, outside the mocks restored after each test, because uPlot
 * draws in a later task and may do so after a test has ended.
 */
/** The texts the charts drew on their canvases (axis values). */
const drawnTexts: string[] = [];
beforeAll(() => {
  const drawing: Record<string, unknown> = { measureText: () => ({ width: 10 }), fillText: (text: string) => drawnTexts.push(text) };
  const context = new Proxy({} as Record<string | symbol, unknown>, {
    get: (target, key) => (key in target ? target[key] : typeof key === 'string' && key in drawing ? drawing[key] : () => undefined),
    set: (target, key, value) => {
      target[key] = value;
      return true;
    },
  });
  globalThis.Path2D = class {
    constructor() {
      return new Proxy(this, { get: () => () => undefined });
    }
  } as unknown as typeof Path2D;
  HTMLCanvasElement.prototype.getContext = (() => context) as unknown as typeof HTMLCanvasElement.prototype.getContext;
});

function renderPage(overview: Overview) {
  const server = fakeServer({
    'GET /api/reports/overview': (request) =>
      request.path.includes('format=csv')
        ? new Response('start,conversations_opened\n', {
            headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': 'attachment; filename="parley-report-x.csv"' },
          })
        : json(overview),
  });
  renderWithApp(
    <MemoryRouter>
      <ReportsPage />
    </MemoryRouter>,
  );
  return server;
}

describe('ReportsPage', () => {
  it('shows totals, both charts with their legends, and the team table', async () => {
    const server = renderPage(BUSY);
    const conversations = await screen.findByRole('region', { name: 'Conversations' });
    // The chart draws once its library has loaded, which may be after the region shows.
    await waitFor(() => expect(conversations.querySelector('canvas')).not.toBeNull());
    expect(within(conversations).getAllByText('Conversations opened').length).toBeGreaterThan(0);
    const messages = screen.getByRole('region', { name: 'Messages' });
    expect(within(messages).getAllByText('Messages received').length).toBeGreaterThan(0);
    const team = screen.getByRole('region', { name: 'Team' });
    const row = within(team).getByRole('row', { name: /Sara Agent/ });
    expect(row).toHaveTextContent('2');
    expect(row).toHaveTextContent('1.5 min');
    expect(server.requests[0]?.path).toMatch(/^\/api\/reports\/overview\?from=\d{4}-\d\d-\d\d&to=\d{4}-\d\d-\d\d&bucket=day&tz=/);
  });

  it('names each day of a week once under a wide chart', async () => {
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(1200);
    const days = Array.from({ length: 7 }, (_, index) => ({ ...ZERO, start: `2026-03-0${index + 1}T00:00:00+00:00`, messages_in: index }));
    drawnTexts.length = 0;
    renderPage({ ...BUSY, from: '2026-03-01T00:00:00+00:00', to: '2026-03-07T00:00:00+00:00', buckets: days });
    const conversations = await screen.findByRole('region', { name: 'Conversations' });
    await waitFor(() => expect(conversations.querySelector('canvas')).not.toBeNull());
    const names = ['Mar 1', 'Mar 2', 'Mar 3', 'Mar 4', 'Mar 5', 'Mar 6', 'Mar 7'];
    // Two charts: each names every day once.
    await waitFor(() => expect(drawnTexts.filter((text) => text === 'Mar 7')).toHaveLength(2));
    for (const name of names) expect(drawnTexts.filter((text) => text === name)).toHaveLength(2);
    expect(drawnTexts.filter((text) => text.startsWith('Mar '))).toHaveLength(14);
  });

  it('asks again for hours and for the last 30 days', async () => {
    const server = renderPage(BUSY);
    await screen.findByRole('region', { name: 'Team' });
    await userEvent.selectOptions(screen.getByLabelText('Group by'), 'hour');
    await waitFor(() => expect(server.requests.at(-1)?.path).toContain('bucket=hour'));
    await userEvent.click(screen.getByRole('button', { name: 'Last 30 days' }));
    await waitFor(() => {
      const search = new URL(`http://x${server.requests.at(-1)?.path ?? ''}`).searchParams;
      const days = (Date.parse(search.get('to') ?? '') - Date.parse(search.get('from') ?? '')) / 86_400_000;
      expect(days).toBe(29);
    });
  });

  it('writes the chosen range in the app language next to the date inputs', async () => {
    renderPage(BUSY);
    await screen.findByRole('region', { name: 'Team' });
    const from = screen.getByLabelText('From');
    const to = screen.getByLabelText('To');
    fireEvent.change(from, { target: { value: '2026-03-01' } });
    fireEvent.change(to, { target: { value: '2026-03-09' } });
    const range = screen.getByText(/^Range shown:/);
    const shown = /^Range shown: March 1\s–\s9, 2026$/;
    expect(range.textContent).toMatch(shown);
    expect(from).toHaveAttribute('lang', 'en');
    expect(from).toHaveAccessibleDescription(shown);
    expect(to).toHaveAccessibleDescription(shown);
  });

  it('shows no figures of the range before when the server refuses the one chosen', async () => {
    fakeServer({
      'GET /api/reports/overview': (request) => {
        const search = new URL(`http://x${request.path}`).searchParams;
        return (search.get('from') ?? '') > (search.get('to') ?? '')
          ? json({ detail: 'from must be before to', message: 'from must be before to', code: 'validation_failed' }, 422)
          : json(BUSY);
      },
    });
    renderWithApp(
      <MemoryRouter>
        <ReportsPage />
      </MemoryRouter>,
    );
    await screen.findByRole('region', { name: 'Team' });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-03-01' } });
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-03-09' } });
    expect(await screen.findByRole('alert')).toHaveTextContent('from must be before to');
    // The range line names the refused range: the last range's numbers would stand under it.
    expect(screen.queryAllByText('Conversations opened')).toHaveLength(0);
    expect(screen.queryByRole('region', { name: 'Team' })).toBeNull();
  });

  it('says so when nothing happened', async () => {
    renderPage({ ...BUSY, buckets: BUSY.buckets.map((b) => ({ ...ZERO, start: b.start })), agents: [], totals: ZERO });
    expect(await screen.findByText(/Nothing happened in this range/)).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Conversations' })).toBeNull();
  });

  it('downloads the CSV under the name the server gives', async () => {
    const server = renderPage(BUSY);
    await screen.findByRole('region', { name: 'Team' });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      expect(this.download).toBe('parley-report-x.csv');
    });
    URL.createObjectURL = vi.fn<typeof URL.createObjectURL>(() => 'blob:report');
    URL.revokeObjectURL = vi.fn<typeof URL.revokeObjectURL>();
    await userEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(server.requests.at(-1)?.path).toContain('format=csv');
  });
});
