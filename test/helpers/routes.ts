/** Every route of an app, from Fastify's `printRoutes({ commonPrefix: false })`, as [method, path] pairs. */
export function routesOf(tree: string): Array<[string, string]> {
  const routes: Array<[string, string]> = [];
  const stack: Array<{ depth: number; path: string }> = [];
  for (const line of tree.split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+) \(([^)]+)\)$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length;
    while (stack.length && stack.at(-1)!.depth >= depth) stack.pop();
    const path = (stack.at(-1)?.path ?? '') + match[2]!;
    stack.push({ depth, path });
    for (const method of match[3]!.split(', ')) routes.push([method, path]);
  }
  return routes;
}
