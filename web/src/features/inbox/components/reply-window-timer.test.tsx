import { screen } from '@testing-library/react';
import { renderWithApp } from '../../../testing/render';
import { ReplyWindowTimer } from './reply-window-timer';

describe('reply window timer', () => {
  it('says what the countdown is in its label and tooltip', () => {
    renderWithApp(<ReplyWindowTimer state={{ expired: false, nearExpiry: false, remaining: '05:12:09' }} />);
    const timer = screen.getByRole('timer', { name: 'Reply window closes in 05:12:09' });
    expect(timer).toHaveTextContent('05:12:09');
    expect(timer).toHaveAttribute('title', 'Reply window closes in 05:12:09');
  });

  it('says the window is closed once it has expired', () => {
    renderWithApp(<ReplyWindowTimer state={{ expired: true, nearExpiry: false, remaining: '' }} />);
    const timer = screen.getByRole('timer', { name: 'Reply window closed: only templates can be sent' });
    expect(timer).toHaveTextContent('Expired');
    expect(timer).toHaveAttribute('title', 'Reply window closed: only templates can be sent');
  });
});
