import { createElement as h, type ReactNode } from 'react';
import { ButtonLink, H1, Layout, Lines, P, type MailBrand } from './layout.ts';

/** The messages that are words and a link or two: account, contact, staff and payment mail. */

export interface ButtonData {
  label: string;
  /** An address on the shop's own site. */
  url: string;
}

/**
 * A message of a heading, paragraphs, the buttons it is for, and paragraphs after them.
 * Verification, password reset, a known address registered again, a payment that failed, a
 * contact acknowledgement, the staff's set-password link; a cancellation or a return's step, with
 * the button to its order's page.
 */
export interface NoticeData {
  heading: string;
  /** "Dear Asha Kaur," or "Hello,"; none for the shop's own messages. */
  greeting?: string;
  paragraphs: string[];
  buttons?: ButtonData[];
  /**
   * A button to an order's page. The queue keeps the order's number and link version, not the
   * link: its key is a secret, signed when the message is sent (brand.orderPath), as the order
   * e-mails do.
   */
  orderPage?: { orderNumber: number; linkVersion: number; label: string };
  after?: string[];
}

export function NoticeMail(props: { brand: MailBrand; data: NoticeData }): ReactNode {
  const { data } = props;
  const paragraphs = (list: string[] | undefined, from: string) =>
    (list ?? []).map((text, i) => h(P, { key: `${from}${i}` }, h(Lines, { text, linksOn: props.brand.publicUrl })));
  return h(
    Layout,
    { brand: props.brand, preview: data.paragraphs[0] ?? data.heading },
    h(H1, null, data.heading),
    data.greeting ? h(P, null, data.greeting) : null,
    ...paragraphs(data.paragraphs, 'p'),
    ...(data.buttons ?? []).map((button, i) => h(ButtonLink, { key: `b${i}`, href: button.url, label: button.label })),
    data.orderPage
      ? h(ButtonLink, {
          href: `${props.brand.publicUrl}${props.brand.orderPath(data.orderPage.orderNumber, data.orderPage.linkVersion)}`,
          label: data.orderPage.label,
        })
      : null,
    ...paragraphs(data.after, 'a'),
  );
}

/**
 * Paragraphs of plain text in the shop's layout: any message written as paragraphs (and any
 * queued before the templates came) reads as the others do. An address on the shop's own site
 * becomes a link; any other stays text (Lines).
 */
export interface ParagraphsData {
  paragraphs: string[];
}

export function ParagraphsMail(props: { brand: MailBrand; data: ParagraphsData }): ReactNode {
  const { paragraphs } = props.data;
  return h(
    Layout,
    { brand: props.brand, preview: paragraphs[0] ?? '' },
    ...paragraphs.map((text, i) => h(P, { key: i }, h(Lines, { text, linksOn: props.brand.publicUrl }))),
  );
}
