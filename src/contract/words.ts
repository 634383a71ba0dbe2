/** "1 order", "2 orders": a count with its noun, for staff and shoppers alike. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
