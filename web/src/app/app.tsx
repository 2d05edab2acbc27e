import { Suspense } from 'react';
import { BrowserRouter } from 'react-router';
import { ToastProvider } from '../lib/toast/toast-provider';
import { AppRoutes } from './router';

export function App() {
  return (
    <BrowserRouter>
      <Suspense fallback={<div className="centered">Loading...</div>}>
        <ToastProvider>
          <AppRoutes />
        </ToastProvider>
      </Suspense>
    </BrowserRouter>
  );
}
