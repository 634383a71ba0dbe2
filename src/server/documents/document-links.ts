import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The signed links that let a customer open their own invoice or credit note without signing in
 * (the order e-mails carry them: docs/rules.md#invoices-and-credit-notes). A link names the
 * document (an invoice by its order's number, a credit note by its own) and a signature of that
 * made with the shop's secret, so no number can be changed into another's.
 */
export type LinkedDocument = 'invoice' | 'credit-note';

export interface DocumentLinks {
  /** The link's path, from the shop's address. */
  pathTo(kind: LinkedDocument, number: number): string;
  /** Whether a link's signature is the shop's for this document. */
  verify(kind: LinkedDocument, number: number, signature: string): boolean;
}

export function createDocumentLinks(secret: string): DocumentLinks {
  const signatureOf = (kind: LinkedDocument, number: number) =>
    createHmac('sha256', secret).update(`document:${kind}:${number}`).digest('base64url');
  return {
    pathTo: (kind, number) => `/api/documents/${kind}/${number}/${signatureOf(kind, number)}`,
    verify(kind, number, signature) {
      const expected = Buffer.from(signatureOf(kind, number));
      const given = Buffer.from(signature);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}
