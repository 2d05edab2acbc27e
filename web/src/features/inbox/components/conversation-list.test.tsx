import { fireEvent, screen } from '@testing-library/react';
import type { Conversation } from '../../../lib/api/types';
import { renderWithApp } from '../../../testing/render';
import { ConversationList } from './conversation-list';

// Each row formats its time once per render: counting the calls counts the rows rendered.
const { formatListTime } = vi.hoisted(() => ({ formatListTime: vi.fn<(value: string) => string>() }));
vi.mock('../../../lib/format/dates', async (actual) => {
  const dates = await actual<typeof import('../../../lib/format/dates')>();
  formatListTime.mockImplementation((value) => dates.formatListTime(value));
  return { ...dates, formatListTime };
});

const rows = (count: number): Conversation[] =>
  Array.from({ length: count }, (_, index) => ({
    phone_number: `1555${String(index).padStart(6, '0')}`,
    name: index % 2 ? `Customer ${index}` : null,
    conversation_id: `pn_1555${index}`,
    last_message_content: index % 3 ? { text: `hello ${index}` } : null,
    last_message_timestamp: null,
    last_incoming_timestamp: null,
    unread_count: index % 5,
  }));

function renderList(overrides: Partial<Parameters<typeof ConversationList>[0]> = {}) {
  const props = {
    items: rows(10_000),
    loading: false,
    loadingMore: false,
    hasMore: true,
    failed: false,
    query: '',
    selectedKey: null,
    onSelect: vi.fn<(c: Conversation) => void>(),
    onLoadMore: vi.fn<() => void>(),
    onClearSearch: vi.fn<() => void>(),
    ...overrides,
  };
  const view = renderWithApp(<ConversationList {...props} />);
  return { ...props, view };
}

describe('conversation list', () => {
  beforeEach(() => {
    // jsdom has no layout: give the scroller a height so the virtualizer has a viewport.
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(760);
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(380);
  });

  it('renders only the visible rows of 10,000 and asks for more near the end', () => {
    const props = renderList();
    const rendered = screen.getAllByRole('listitem');
    expect(rendered.length).toBeGreaterThan(5);
    expect(rendered.length).toBeLessThan(40);
    expect(props.onLoadMore).not.toHaveBeenCalled();

    const scroller = screen.getByRole('list', { name: 'Chats' });
    scroller.scrollTop = 76 * 10_000;
    fireEvent.scroll(scroller);
    expect(props.onLoadMore).toHaveBeenCalled();
  });

  it('renders none of the shown rows again when the next page arrives', () => {
    const shown = rows(20).map((row) => ({ ...row, last_message_timestamp: '2026-01-01T10:00:00Z' }));
    const props = renderList({ items: shown });
    const rendered = screen.getAllByRole('listitem').length;
    expect(formatListTime).toHaveBeenCalledTimes(rendered);

    formatListTime.mockClear();
    props.view.rerender(<ConversationList {...props} items={[...shown, ...rows(20)]} loadingMore />);
    expect(formatListTime).not.toHaveBeenCalled();
  });

  it('shows name or Unknown, the phone, unread badge and the preview fallback', () => {
    renderList({ items: rows(2) });
    expect(screen.getByRole('button', { name: 'Unknown' })).toHaveTextContent('1555000000');
    expect(screen.getByRole('button', { name: 'Unknown' })).toHaveTextContent('No messages yet');
    expect(screen.getByRole('button', { name: 'Customer 1' })).toHaveTextContent('hello 1');
    expect(screen.getByLabelText('1 unread')).toBeInTheDocument();
  });

  it('highlights the search in names and phones', () => {
    renderList({ items: rows(2), query: 'tomer' });
    expect(screen.getByText('tomer', { selector: 'mark' })).toBeInTheDocument();
  });

  it('shows ten skeleton rows while loading', () => {
    renderList({ loading: true });
    expect(screen.getAllByTestId('skeleton-row')).toHaveLength(10);
  });

  it('offers to clear a search that found nothing', () => {
    const props = renderList({ items: [], query: 'zzz' });
    fireEvent.click(screen.getByRole('button', { name: 'Clear search' }));
    expect(props.onClearSearch).toHaveBeenCalled();
  });
});
