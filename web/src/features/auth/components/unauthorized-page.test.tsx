import { screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { clearSession } from '../../../lib/api/session-store';
import { renderWithApp } from '../../../testing/render';
import { signInAs } from '../../../testing/session';
import { UnauthorizedPage } from './unauthorized-page';

function renderPage() {
  renderWithApp(
    <MemoryRouter>
      <UnauthorizedPage />
    </MemoryRouter>,
  );
}

describe('UnauthorizedPage', () => {
  afterEach(() => clearSession());

  it('offers a signed-in agent the way back to the inbox as well as sign-in', () => {
    signInAs('u2', 'agent');
    renderPage();
    expect(screen.getByRole('heading', { name: 'Not allowed' })).toBeTruthy();
    expect(screen.getByRole('link', { name: /Back to the inbox/ }).getAttribute('href')).toBe('/whatsapp');
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/login');
  });

  it('offers only sign-in to someone signed out', () => {
    renderPage();
    expect(screen.queryByRole('link', { name: /Back to the inbox/ })).toBeNull();
    expect(screen.getByRole('link', { name: 'Sign in' })).toBeTruthy();
  });
});
