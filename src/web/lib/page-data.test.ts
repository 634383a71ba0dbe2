// @vitest-environment happy-dom
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { seedPageData } from './page-data.ts';

function pageWith(json: string): ParentNode {
  const root = document.createElement('div');
  const script = document.createElement('script');
  script.id = 'shop-page-data';
  script.type = 'application/json';
  script.textContent = json;
  root.append(script);
  return root;
}

describe('seedPageData', () => {
  it("puts each of the page's answers into the query cache under its key, fresh", () => {
    const client = new QueryClient();
    seedPageData(client, pageWith(JSON.stringify([{ key: ['brands'], data: [{ id: 1, name: 'Taalwala' }] }])));
    expect(client.getQueryData(['brands'])).toEqual([{ id: 1, name: 'Taalwala' }]);
    expect(client.getQueryState(['brands'])?.dataUpdatedAt).toBeGreaterThan(Date.now() - 1000);
  });

  it('leaves the cache empty, for the page to ask the API, when the data is missing or unreadable', () => {
    for (const json of ['', '{not json', '{"key":["brands"]}', '[{"data":1}]']) {
      const client = new QueryClient();
      seedPageData(client, pageWith(json));
      expect(client.getQueryCache().getAll()).toEqual([]);
    }
  });
});
