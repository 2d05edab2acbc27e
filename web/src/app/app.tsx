import { Suspense } from 'react';
import { BrowserRouter } from 'react-router';
import { PageLoading } from '../components/page-loading';
import { ToastProvider } from '../lib/toast/toast-provider';
import { AppRoutes } from './router';

export function App() {
  return (
    <BrowserRouter>
      <Suspense fallback={<PageLoading />}>
        <ToastProvider>
          <AppRoutes />
        </ToastProvider>
      </Suspense>
    </BrowserRouter>
  );
}
