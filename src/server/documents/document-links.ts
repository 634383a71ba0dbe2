import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The signed links that let a customer open their own invoice or credit note without signing in
 * (the order e-mails and the order page carry them: docs/rules.md#invoices-and-credit-notes). A
 * link names the document (an invoice by its order's number, a credit note by its own) and a
 * signature of that and of its order's link version, made with the shop's secret, so no number can
 * be changed into another's, and a link dies with the order page's when staff revoke it (an outside
 * attack found the document links of a revoked order still opening: orders/order-links.ts).
 *
 * Version 1, every order's first, is signed as the links were before the version was part of them,
 * so the links in e-mails already sent open until their order's link is revoked, as the order page
 * link beside them does. Staff open documents behind their sign-in, never by these links.
 */
export type LinkedDocument = 'invoice' | 'credit-note';

export interface DocumentLinks {
  /** The link's path, from the shop's address, for the order's current link version. */
  pathTo(kind: LinkedDocument, number: number, linkVersion: number): string;
  /** Whether a link's signature is the shop's for this document at its order's link version. */
  verify(kind: LinkedDocument, number: number, linkVersion: number, signature: string): boolean;
}

export function createDocumentLinks(secret: string): DocumentLinks {
  const signatureOf = (kind: LinkedDocument, number: number, linkVersion: number) =>
    createHmac('sha256', secret)
      .update(linkVersion === 1 ? `document:${kind}:${number}` : `document:${kind}:${number}:${linkVersion}`)
      .digest('base64url');
  return {
    pathTo: (kind, number, linkVersion) => `/api/documents/${kind}/${number}/${signatureOf(kind, number, linkVersion)}`,
    verify(kind, number, linkVersion, signature) {
      const expected = Buffer.from(signatureOf(kind, number, linkVersion));
      const given = Buffer.from(signature);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}
