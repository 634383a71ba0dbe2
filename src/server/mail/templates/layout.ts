import { Body } from '@react-email/body';
import { Button } from '@react-email/button';
import { Container } from '@react-email/container';
import { Head } from '@react-email/head';
import { Heading } from '@react-email/heading';
import { Hr } from '@react-email/hr';
import { Html } from '@react-email/html';
import { Link } from '@react-email/link';
import { Preview } from '@react-email/preview';
import { Section } from '@react-email/section';
import { Text } from '@react-email/text';
import { createContext, createElement as h, useContext, type CSSProperties, type ReactNode } from 'react';
import type { ShopIdentity } from '../../../contract/shop.ts';

/**
 * The shop's e-mail layout and its parts (docs/rules.md#mail). Written with `createElement` (as
 * `h`), not JSX: the server runs its TypeScript as Node strips it, and Node strips no JSX.
 * Everything is styled inline (mail programs drop style sheets), 600 px wide at most and fluid
 * below that; no web fonts, no images but the shop's own, nothing that tracks.
 */

/** What every message knows of the shop: its identity and its address on the web. */
export interface MailBrand {
  shop: ShopIdentity;
  /** The shop's VAT registration number, as its invoices give it. */
  vatNumber: string;
  /** The shop's own address (PUBLIC_URL), without a trailing slash: every link and image is on it. */
  publicUrl: string;
  /** The path of an order's page from its signed link (orders/order-links.ts). */
  orderPath(orderNumber: number, linkVersion: number): string;
  /** The path of a credit note's signed link at its order's link version (documents/document-links.ts). */
  creditNotePath(creditNoteNumber: number, linkVersion: number): string;
}

/** The web shop's colours (src/web's --color-*). */
export const colours = {
  text: '#2a1d17',
  muted: '#5c483d',
  brand: '#8a2f0f',
  brandDark: '#5e1f08',
  brandSoft: '#fbeee2',
  border: '#e4d3c1',
  background: '#fffaf3',
  surface: '#ffffff',
  onDark: '#fdf3e7',
} as const;

const font = 'Georgia, "Times New Roman", serif';
const sans = 'Arial, Helvetica, sans-serif';

export const styles = {
  // A long word or address someone typed wraps rather than widening the message.
  text: {
    fontFamily: sans,
    fontSize: '16px',
    lineHeight: '24px',
    color: colours.text,
    margin: '0 0 16px',
    overflowWrap: 'anywhere',
  },
  small: {
    fontFamily: sans,
    fontSize: '13px',
    lineHeight: '20px',
    color: colours.muted,
    margin: '0 0 8px',
    overflowWrap: 'anywhere',
  },
  heading: { fontFamily: font, fontSize: '24px', lineHeight: '30px', color: colours.brandDark, margin: '0 0 16px' },
  subheading: {
    fontFamily: font,
    fontSize: '19px',
    lineHeight: '26px',
    color: colours.brandDark,
    margin: '24px 0 8px',
  },
  link: { color: colours.brand, textDecoration: 'underline', wordBreak: 'break-all' },
} satisfies Record<string, CSSProperties>;

export function P(props: { children?: ReactNode; style?: CSSProperties }) {
  return h(Text, { style: { ...styles.text, ...props.style } }, props.children);
}

export function Small(props: { children?: ReactNode }) {
  return h(Text, { style: styles.small }, props.children);
}

export function H1(props: { children?: ReactNode }) {
  return h(Heading, { as: 'h1', style: styles.heading }, props.children);
}

export function H2(props: { children?: ReactNode }) {
  return h(Heading, { as: 'h2', style: styles.subheading }, props.children);
}

/** A link; `addressInText`: the plain text gives its address alone, not its words and address. */
export function A(props: { href: string; children?: ReactNode; addressInText?: boolean }) {
  return h(
    Link,
    { href: props.href, style: styles.link, ...(props.addressInText ? { 'data-text': 'address' } : {}) },
    props.children ?? props.href,
  );
}

/** The link a message is for, as a button: its words and, for the plain text, its address. */
export function ButtonLink(props: { href: string; label: string }) {
  return h(
    Section,
    { style: { margin: '8px 0 24px' } },
    h(
      Button,
      {
        href: props.href,
        style: {
          backgroundColor: colours.brand,
          color: colours.onDark,
          fontFamily: sans,
          fontSize: '16px',
          fontWeight: 'bold',
          lineHeight: '22px',
          textDecoration: 'none',
          borderRadius: '4px',
          padding: '12px 20px',
          maxWidth: '100%',
        },
      },
      props.label,
    ),
  );
}

/**
 * Text with line breaks kept (a paragraph written with "\n"). With `linksOn` (the shop's own
 * address), an address on the shop's own site becomes a link to it; no other address does: a
 * paragraph may carry what a shopper typed (a name, a message), and that must never become a link
 * in the shop's mail.
 */
export function Lines(props: { text: string; linksOn?: string }): ReactNode {
  const lines = props.text.split('\n');
  const line = (text: string, key: number) => (props.linksOn ? linked(text, props.linksOn, key) : text);
  return lines.flatMap((text, i) => (i === 0 ? [line(text, 0)] : [h('br', { key: `br${i}` }), line(text, i)]));
}

/** The shop's own web addresses written in a line, as links; any other address stays text. */
function linked(line: string, site: string, key: number): ReactNode {
  const parts = line.split(/(https?:\/\/[^\s<>"]+)/);
  if (parts.length === 1) return line;
  const ours = (address: string) => address.startsWith(`${site}/`);
  return h(
    'span',
    { key },
    ...parts.map((part, i) => (i % 2 === 1 && ours(part) ? h(A, { key: i, href: part }) : part)),
  );
}

export function addressLines(shop: ShopIdentity): string[] {
  return shop.address
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

/** The message's subject, the HTML document's title. */
export const MailTitle = createContext('');

/** Every message: the shop's name above, its particulars below, the content between. */
export function Layout(props: { brand: MailBrand; preview: string; children?: ReactNode }) {
  const { shop, publicUrl, vatNumber } = props.brand;
  const title = useContext(MailTitle);
  return h(
    Html,
    { lang: 'en-GB', dir: 'ltr' },
    h(
      Head,
      null,
      h('meta', { name: 'viewport', content: 'width=device-width, initial-scale=1' }),
      h('meta', { name: 'color-scheme', content: 'light' }),
      h('title', null, title || shop.name),
    ),
    h(
      Body,
      { style: { backgroundColor: colours.background, margin: 0, padding: '16px 0' } },
      h(Preview, null, props.preview),
      h(
        Container,
        {
          style: {
            maxWidth: '600px',
            width: '100%',
            backgroundColor: colours.surface,
          },
        },
        h(
          Section,
          { style: { backgroundColor: colours.text, padding: '16px 24px' } },
          h(
            Link,
            {
              href: `${publicUrl}/`,
              style: {
                fontFamily: font,
                fontSize: '24px',
                lineHeight: '30px',
                color: colours.onDark,
                textDecoration: 'none',
              },
            },
            shop.name,
          ),
        ),
        h(Section, { style: { padding: '24px' } }, props.children),
        h(
          Section,
          {
            style: {
              backgroundColor: colours.brandSoft,
              padding: '16px 24px',
              borderTop: `1px solid ${colours.border}`,
            },
          },
          h(Text, { style: { ...styles.small, fontWeight: 'bold', color: colours.text } }, shop.name),
          h(Small, null, addressLines(shop).join(', ')),
          h(
            Small,
            null,
            'Telephone ',
            h(A, { href: `tel:${shop.phone.replace(/[^\d+]/g, '')}` }, shop.phone),
            ' · E-mail ',
            h(A, { href: `mailto:${shop.email}` }, shop.email),
          ),
          h(Small, null, `Company number ${shop.companyNumber} · VAT number ${vatNumber}`),
          h(Small, null, h(A, { href: `${publicUrl}/` }, publicUrl.replace(/^https?:\/\//, ''))),
        ),
      ),
    ),
  );
}

export { Hr };
