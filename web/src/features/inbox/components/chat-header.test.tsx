import { screen } from '@testing-library/react';
import type { Conversation } from '../../../lib/api/types';
import { fakeServer, json } from '../../../testing/fake-server';
import { renderWithApp } from '../../../testing/render';
import { ChatHeader } from './chat-header';

const CORA: Conversation = {
  phone_number: '+16505551234',
  name: 'Cora',
  conversation_id: 'pn_16505551234',
  last_message_content: null,
  last_message_timestamp: null,
  last_incoming_timestamp: null,
  unread_count: 0,
};

function renderHeader() {
  fakeServer({ 'GET /api/labels': () => json({ labels: [] }) });
  const noop = () => undefined;
  renderWithApp(
    <ChatHeader
      conversation={CORA}
      replyWindow={{ expired: false, nearExpiry: false, remaining: '23:00:00' }}
      showBack
      onBack={noop}
      onContactSaved={noop}
      onContactDeleted={noop}
      onTeamChange={noop}
    />,
  );
}

describe('chat header in either direction', () => {
  it('has a back arrow that turns around in right-to-left pages', () => {
    renderHeader();
    const back = screen.getByRole('button', { name: 'Back to chats' });
    expect(back.querySelector('svg')).toHaveClass('icon-mirror');
  });

  it('gives the name its own direction, and isolates the phone left to right', () => {
    renderHeader();
    expect(screen.getByRole('heading', { name: 'Cora' })).toHaveAttribute('dir', 'auto');
    expect(screen.getByText('+16505551234').closest('bdi')).toHaveAttribute('dir', 'ltr');
  });
});
