/**
 * An e-mail address as the unpaid-order caps count it: lower case, without a `+tag` and without
 * dots in the local part, since most mail services deliver those variants to the same mailbox.
 * (Two different people whose addresses differ only by dots share a count; that only makes their
 * cap tighter.)
 */
export function emailKeyOf(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 0) return email.trim().toLowerCase();
  const local = email.slice(0, at).trim().toLowerCase().replace(/\+.*$/, '').replaceAll('.', '');
  return `${local}@${email
    .slice(at + 1)
    .trim()
    .toLowerCase()}`;
}
