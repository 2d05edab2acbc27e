import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { RouteEffects } from './route-effects';

type Listener = (event: unknown) => void;

const listeners = vi.hoisted(() => new Map<string, Listener>());
const on = (event: string, listener: Listener) => {
  listeners.set(event, listener);
  return Promise.resolve({ remove: async () => void listeners.delete(event) });
};

vi.mock('@capacitor/core', () => ({ Capacitor: { isNativePlatform: () => true, getPlatform: () => 'android' } }));
vi.mock('@capacitor/app', () => ({ App: { addListener: on } }));
vi.mock('@capacitor/push-notifications', () => ({ PushNotifications: { addListener: on } }));

function Where() {
  const location = useLocation();
  return <p>at {location.pathname + location.search}</p>;
}

function renderApp() {
  const router = createMemoryRouter([{ element: <RouteEffects />, children: [{ path: '*', element: <Where /> }] }], {
    initialEntries: ['/template'],
  });
  render(<RouterProvider router={router} />);
}

async function listening(event: string): Promise<Listener> {
  await vi.waitFor(() => expect(listeners.get(event)).toBeDefined());
  return listeners.get(event) as Listener;
}

describe('the native app opens conversations', () => {
  it('from a deep link whose path contains /whatsapp', async () => {
    renderApp();
    (await listening('appUrlOpen'))({ url: 'https://inbox.example.com/whatsapp?conversation_id=1555_15550001111' });
    expect(await screen.findByText('at /whatsapp?conversation_id=1555_15550001111')).toBeInTheDocument();
  });

  it('from a tapped notification', async () => {
    renderApp();
    (await listening('pushNotificationActionPerformed'))({ actionId: 'tap', notification: { data: { conversation_id: '1555_US.13491208655302741918' } } });
    expect(await screen.findByText('at /whatsapp?conversation_id=1555_US.13491208655302741918')).toBeInTheDocument();
  });

  it('ignores a link to anything else', async () => {
    renderApp();
    (await listening('appUrlOpen'))({ url: 'https://inbox.example.com/template?x=1' });
    expect(await screen.findByText('at /template')).toBeInTheDocument();
  });
});
