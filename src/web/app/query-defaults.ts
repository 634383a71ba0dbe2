/** The query cache's defaults, the same in the browser (app.tsx) and on the server (entry-server.tsx). */
export const queryDefaults = { staleTime: 60_000, retry: 1, refetchOnWindowFocus: false } as const;
