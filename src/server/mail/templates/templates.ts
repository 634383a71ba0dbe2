import { compile } from 'html-to-text';
import { createElement as h, type ReactNode } from 'react';
// react-dom/server resolves on Node to react-dom's server.node build, which the Containerfile keeps.
import { renderToStaticMarkup } from 'react-dom/server';
import { MailTitle, type MailBrand } from './layout.ts';
import { NoticeMail, ParagraphsMail, type NoticeData, type ParagraphsData } from './message-templates.ts';
import {
  DispatchMail,
  OrderConfirmationMail,
  ReadyForCollectionMail,
  RefundMail,
  type DispatchData,
  type OrderConfirmationData,
  type ReadyForCollectionData,
  type RefundData,
} from './order-templates.ts';

export type { MailBrand } from './layout.ts';

/**
 * The shop's e-mail templates, one for each kind of message, named with their data. A queued
 * message stores its template's name and data (plain JSON), not rendered HTML: the mail queue
 * keeps little, and the bodies are made when it is sent (docs/rules.md#mail).
 */
export type MailTemplate =
  | { name: 'paragraphs'; data: ParagraphsData }
  | { name: 'notice'; data: NoticeData }
  | { name: 'orderConfirmation'; data: OrderConfirmationData }
  | { name: 'dispatch'; data: DispatchData }
  | { name: 'readyForCollection'; data: ReadyForCollectionData }
  | { name: 'refund'; data: RefundData };

function elementOf(template: MailTemplate, brand: MailBrand): ReactNode {
  switch (template.name) {
    case 'paragraphs':
      return h(ParagraphsMail, { brand, data: template.data });
    case 'notice':
      return h(NoticeMail, { brand, data: template.data });
    case 'orderConfirmation':
      return h(OrderConfirmationMail, { brand, data: template.data });
    case 'dispatch':
      return h(DispatchMail, { brand, data: template.data });
    case 'readyForCollection':
      return h(ReadyForCollectionMail, { brand, data: template.data });
    case 'refund':
      return h(RefundMail, { brand, data: template.data });
  }
}

const DOCTYPE =
  '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">';

/**
 * A message's HTML and its plain-text alternative. The text is made from the same rendered HTML
 * (html-to-text), not written a second time: the two cannot say different things. A link's
 * address follows its words, unbracketed, so it reads (and is found) as an address; lines are not
 * wrapped, so no address is broken; the inbox preview's hidden text is left out.
 */
export function renderMail(
  template: MailTemplate,
  brand: MailBrand,
  /** The message's subject, the document's title. */
  title = '',
): { html: string; text: string } {
  const html = DOCTYPE + renderToStaticMarkup(h(MailTitle.Provider, { value: title }, elementOf(template, brand)));
  return { html, text: toText(html) };
}

const toText = compile({
  wordwrap: false,
  formatters: {
    addressOnly: (elem, _walk, builder) =>
      builder.addInline(String(elem.attribs?.href ?? ''), { noWordTransform: true }),
  },
  selectors: [
    { selector: 'a', options: { linkBrackets: false, hideLinkHrefIfSameAsText: true } },
    // A document's link reads "Your VAT invoice: https://..." in the text: its address alone.
    { selector: 'a[data-text="address"]', format: 'addressOnly' },
    { selector: 'a[href^="tel:"]', format: 'anchor', options: { ignoreHref: true } },
    { selector: 'a[href^="mailto:"]', format: 'anchor', options: { ignoreHref: true } },
    { selector: 'img', format: 'skip' },
    { selector: 'title', format: 'skip' },
    { selector: 'h1', options: { uppercase: false } },
    { selector: 'h2', options: { uppercase: false } },
    { selector: '[data-skip-in-text]', format: 'skip' },
  ],
});
