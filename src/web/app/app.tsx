import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router';
import { pageLoaders } from '../../contract/page-loaders.ts';
import { seedPageData } from '../lib/page-data.ts';
import { MessageModalProvider } from '../ui/message-modal/message-modal.tsx';
import { queryDefaults } from './query-defaults.ts';
import { queryCacheReader } from './catalog-reader.ts';
import { AppRoutes, type PageDataPrefetch } from './router.tsx';

const queryClient = new QueryClient({ defaultOptions: { queries: queryDefaults } });
seedPageData(queryClient);
const reader = queryCacheReader(queryClient);

// The data only lets the page draw sooner: a query that fails is the page's own to show as it does.
const prefetchPageData: PageDataPrefetch = (page, at) => void pageLoaders[page](reader, at).catch(() => undefined);

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <MessageModalProvider>
        <BrowserRouter>
          <AppRoutes prefetch={prefetchPageData} />
        </BrowserRouter>
      </MessageModalProvider>
    </QueryClientProvider>
  );
}
