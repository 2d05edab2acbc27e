import { Suspense, useState } from 'react';
import { RouterProvider } from 'react-router';
import { ToastProvider } from '../lib/toast/toast-provider';
import { createRouter } from './router';

export function App() {
  const [router] = useState(createRouter);
  return (
    <Suspense fallback={<div className="centered">Loading...</div>}>
      <ToastProvider>
        <RouterProvider router={router} />
      </ToastProvider>
    </Suspense>
  );
}
