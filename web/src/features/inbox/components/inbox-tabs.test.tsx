import 'fake-indexeddb/auto';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import type { Conversation, Label } from '../../../lib/api/types';
import { fakeRealtime } from '../../../testing/fake-realtime';
import { fakeServer, json } from '../../../testing/fake-server';
import { renderWithApp } from '../../../testing/render';
import type { ListFilter } from '../api/team-api';
import { useConversations } from '../hooks/use-conversations';
import { useTabCounts } from '../hooks/use-tab-counts';
import { ConversationList } from './conversation-list';
import { InboxTabs } from './inbox-tabs';

const row = (phone: string, name: string, extra: Partial<Conversation> = {}): Conversation => ({
  phone_number: phone,
  name,
  conversation_id: `pn_${phone}`,
  last_message_content: { text: 'hi' },
  last_message_timestamp: null,
  last_incoming_timestamp: null,
  unread_count: 0,
  status: 'open',
  snoozed_until: null,
  assignee: null,
  ...extra,
});

const BO = { id: 'u2', name: 'Bo Agent' };
const ANA = row('1555001', 'Ana');
const CAL = row('1555002', 'Cal', { assignee: BO });

/** The list part of the inbox: tabs with counts over the chat list. */
function TeamList({ labels = [] }: { labels?: Label[] }) {
  const [filter, setFilter] = useState<ListFilter>({ assignee: 'all', status: 'open' });
  const list = useConversations('', filter);
  const counts = useTabCounts(filter.status, filter.label);
  return (
    <>
      <InboxTabs filter={filter} counts={counts} labels={labels} onChange={setFilter} />
      <ConversationList
        items={list.items}
        loading={list.loading}
        loadingMore={false}
        hasMore={false}
        failed={list.failed}
        query=""
        selectedKey={null}
        onSelect={() => undefined}
        onLoadMore={() => undefined}
        onClearSearch={() => undefined}
      />
    </>
  );
}

describe('inbox tabs', () => {
  beforeEach(() => {
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(760);
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(380);
  });

  it('show counts, filter the list by tab and status, and move rows live when a conversation is taken', async () => {
    let counts = { mine: 0, unassigned: 1, all: 2 };
    const { requests } = fakeServer({
      'GET /api/users': ({ path }) => {
        const query = new URL(path, 'http://localhost').searchParams;
        const users = query.get('assignee') === 'unassigned' ? [ANA] : [ANA, CAL];
        return json({ data: { users, has_more: false, page: 1, total_unread: 0 } });
      },
      'GET /api/users/counts': () => json(counts),
    });
    const realtime = fakeRealtime();
    renderWithApp(
      <realtime.Provider value={realtime.value}>
        <TeamList />
      </realtime.Provider>,
    );

    const tabs = screen.getByRole('tablist', { name: 'Conversation tabs' });
    expect(await within(tabs).findByRole('tab', { name: /^Unassigned\s*1$/ })).toBeInTheDocument();
    expect(within(tabs).getByRole('tab', { name: /^All\s*2$/, selected: true })).toBeInTheDocument();
    const cal = await screen.findByRole('button', { name: 'Cal' });
    expect(within(cal).getByRole('img', { name: 'Assigned to Bo Agent' })).toHaveTextContent('BA');

    await userEvent.click(within(tabs).getByRole('tab', { name: /^Unassigned\s*1$/ }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Cal' })).not.toBeInTheDocument());
    expect(requests.some((r) => r.path.startsWith('/api/users?') && r.path.includes('assignee=unassigned') && r.path.includes('status=open'))).toBe(true);
    expect(screen.getByRole('button', { name: 'Ana' })).toBeInTheDocument();

    counts = { mine: 0, unassigned: 0, all: 2 };
    realtime.emit({
      event: 'conversation_updated',
      data: { conversation_id: ANA.conversation_id, phone_number: ANA.phone_number, status: 'open', snoozed_until: null, assignee: BO, by: BO },
    });
    expect(screen.queryByRole('button', { name: 'Ana' })).not.toBeInTheDocument();
    expect(await within(tabs).findByRole('tab', { name: /^Unassigned\s*0$/ })).toBeInTheDocument();

    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'resolved');
    await waitFor(() => expect(requests.some((r) => r.path === '/api/users/counts?status=resolved')).toBe(true));
    expect(requests.some((r) => r.path.includes('assignee=unassigned') && r.path.includes('status=resolved'))).toBe(true);
  });

  it('read the counts only once the live stream lets screens read, so none began unseen', async () => {
    const { requests } = fakeServer({
      'GET /api/users': () => json({ data: { users: [ANA, CAL], has_more: false, page: 1, total_unread: 0 } }),
      'GET /api/users/counts': () => json({ mine: 0, unassigned: 1, all: 2 }),
    });
    const realtime = fakeRealtime();
    const { rerender } = renderWithApp(
      <realtime.Provider value={{ ...realtime.value, ready: false }}>
        <TeamList />
      </realtime.Provider>,
    );
    await new Promise((settle) => setTimeout(settle, 50));
    expect(requests.filter((r) => r.path.startsWith('/api/users/counts'))).toHaveLength(0);

    rerender(
      <realtime.Provider value={realtime.value}>
        <TeamList />
      </realtime.Provider>,
    );
    const tabs = screen.getByRole('tablist', { name: 'Conversation tabs' });
    expect(await within(tabs).findByRole('tab', { name: /^All\s*2$/ })).toBeInTheDocument();
  });

  it('show a row status other than open', async () => {
    fakeServer({
      'GET /api/users': () => json({ data: { users: [row('1555003', 'Dee', { status: 'snoozed' })], has_more: false, page: 1, total_unread: 0 } }),
      'GET /api/users/counts': () => json({ mine: 0, unassigned: 1, all: 1 }),
    });
    const realtime = fakeRealtime();
    renderWithApp(
      <realtime.Provider value={realtime.value}>
        <TeamList />
      </realtime.Provider>,
    );
    expect(within(await screen.findByRole('button', { name: 'Dee' })).getByText('Snoozed')).toBeInTheDocument();
  });

  it('filter the list by a label, show its chips, and keep the filtered list live', async () => {
    const vip: Label = { id: 'l1', name: 'VIP', color: '#FBCA04' };
    const dee = row('1555003', 'Dee', { labels: [vip] });
    let labelled = [dee];
    const { requests } = fakeServer({
      'GET /api/users': ({ path }) => {
        const users = new URL(path, 'http://localhost').searchParams.get('label') === 'l1' ? labelled : [ANA, dee];
        return json({ data: { users, has_more: false, page: 1, total_unread: 0 } });
      },
      'GET /api/users/counts': () => json({ mine: 0, unassigned: 2, all: 2 }),
    });
    const realtime = fakeRealtime();
    renderWithApp(
      <realtime.Provider value={realtime.value}>
        <TeamList labels={[vip]} />
      </realtime.Provider>,
    );
    const chips = within(await screen.findByRole('button', { name: 'Dee' })).getByRole('list', { name: 'Labels' });
    expect(within(chips).getByText('VIP')).toHaveStyle({ color: '#000000' });

    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Label filter' }), 'l1');
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Ana' })).not.toBeInTheDocument());
    expect(requests.some((r) => r.path.startsWith('/api/users?') && r.path.includes('label=l1'))).toBe(true);
    expect(requests.some((r) => r.path === '/api/users/counts?status=open&label=l1')).toBe(true);

    // A teammate labels Ana: she joins the filtered list; Dee loses the label and leaves it.
    const anaLabelled = { ...ANA, labels: [vip] };
    labelled = [anaLabelled, dee];
    const update = (who: Conversation, labels: Label[]) =>
      realtime.emit({
        event: 'conversation_updated',
        data: { conversation_id: who.conversation_id, phone_number: who.phone_number, status: 'open', snoozed_until: null, assignee: null, labels, by: BO },
      });
    update(ANA, [vip]);
    expect(await screen.findByRole('button', { name: 'Ana' })).toBeInTheDocument();
    labelled = [anaLabelled];
    update(dee, []);
    expect(screen.queryByRole('button', { name: 'Dee' })).not.toBeInTheDocument();

    // A renamed label shows its new name on the rows.
    realtime.emit({ event: 'labels_changed', data: { labels: [{ ...vip, name: 'Gold' }] } });
    expect(within(screen.getByRole('button', { name: 'Ana' })).getByText('Gold')).toBeInTheDocument();
  });
});
