import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router';
import { seedPageData } from '../lib/page-data.ts';
import { MessageModalProvider } from '../ui/message-modal/message-modal.tsx';
import { queryDefaults } from './query-defaults.ts';
import { AppRoutes } from './router.tsx';

const queryClient = new QueryClient({ defaultOptions: { queries: queryDefaults } });
seedPageData(queryClient);

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <MessageModalProvider>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </MessageModalProvider>
    </QueryClientProvider>
  );
}
