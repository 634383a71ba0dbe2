import { createHash } from 'node:crypto';
import type { OpayoMode } from '../../opayo.ts';

/**
 * The two Opayo calls a refund of a Form payment takes (docs/decisions/0014-opayo-refunds.md):
 * the Reporting and Admin API's getTransactionDetail, which gives the payment's security key (the
 * Form return does not carry it), and the shared protocol's REFUND.
 *
 * Reporting API: `XML=<vspaccess>...</vspaccess>` posted to /access/access.htm; the command's
 * elements (command, vendor, user, then its own) are signed with the MD5 of those elements followed
 * by `<password>` and the user's password, sent as `<signature>`; the answer is flat XML led by
 * `<errorcode>` (0000 is success). REFUND: Name=Value fields posted to
 * /gateway/service/refund.vsp; the answer is Name=Value lines with Status (OK or why not).
 */

export class OpayoUnreachable extends Error {}

/**
 * The Reporting API's error code for a transaction it does not hold (the local sandbox answers it
 * too). The guideline we had does not list its codes (ADR 0014): should Opayo answer another for
 * that, a refund whose answer was lost stays reserved, and unsettled, rather than freed.
 */
export const REPORTING_NO_SUCH_TRANSACTION = '0043';

const CALL_TIMEOUT_MS = 15_000;

export function opayoAdminUrls(mode: OpayoMode, publicUrl: string) {
  const base =
    mode === 'local'
      ? `${publicUrl}/sandbox/opayo`
      : `https://${mode === 'test' ? 'sandbox' : 'live'}.opayo.eu.elavon.com`;
  return { reporting: `${base}/access/access.htm`, refund: `${base}/gateway/service/refund.vsp` };
}

function xmlEscape(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function xmlUnescape(value: string): string {
  return value
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

/**
 * The MD5 signature over a command's elements, exactly as sent, and the user's password, which is
 * written as it is (public integrations do not escape it either; it is never sent).
 */
export function reportingSignature(elements: string, password: string): string {
  return createHash('md5').update(`${elements}<password>${password}</password>`, 'utf8').digest('hex');
}

/** The elements of a command, in Opayo's order: command, vendor, user, then its own. */
export function reportingElements(
  command: string,
  credentials: { vendor: string; user: string },
  params: Array<[string, string]>,
): string {
  const elements: Array<[string, string]> = [
    ['command', command],
    ['vendor', credentials.vendor],
    ['user', credentials.user],
    ...params,
  ];
  return elements.map(([name, value]) => `<${name}>${xmlEscape(value)}</${name}>`).join('');
}

/**
 * The text elements of a `<vspaccess>` document, by lower-cased name, the first of each name;
 * undefined for anything else. The getTransactionDetail answer refunds read is flat (the fields
 * wanted are plain text), so a small reader does instead of an XML library.
 */
export function readVspaccess(xml: string): Record<string, string> | undefined {
  const body = /^\s*(?:<\?xml[^>]*\?>\s*)?<vspaccess>([\s\S]*)<\/vspaccess>\s*$/.exec(xml)?.[1];
  if (body === undefined) return undefined;
  const fields: Record<string, string> = {};
  for (const match of body.matchAll(/<([A-Za-z][A-Za-z0-9]*)>([^<]*)<\/\1>|<([A-Za-z][A-Za-z0-9]*)\s*\/>/g)) {
    const name = (match[1] ?? match[3] ?? '').toLowerCase();
    if (!Object.hasOwn(fields, name)) fields[name] = xmlUnescape(match[2] ?? '');
  }
  return fields;
}

/** A shared-protocol answer: `Name=Value` lines (CRLF, or LF). */
export function readNameValueLines(text: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const at = line.indexOf('=');
    if (at > 0) fields[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return fields;
}

/** A VPSTxId as the Reporting API writes it: the GUID without braces, upper case. */
export function bareVpsTxId(vpsTxId: string): string {
  return vpsTxId.replace(/^\{|\}$/g, '').toUpperCase();
}

export function opayoAdminClient(options: {
  mode: OpayoMode;
  publicUrl: string;
  vendor: string;
  user: string;
  password: string;
  fetch: typeof fetch;
}) {
  const urls = opayoAdminUrls(options.mode, options.publicUrl);

  /** Posts a form; its answer's text, or OpayoUnreachable for no answer (a timeout) or a 5xx. */
  async function post(url: string, form: URLSearchParams): Promise<string> {
    let response: Response;
    try {
      response = await options.fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
        signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
      });
    } catch (error) {
      throw new OpayoUnreachable(`Opayo did not answer: ${(error as Error).message}`);
    }
    const text = await response.text().catch(() => '');
    if (response.status >= 500) throw new OpayoUnreachable(`Opayo answered ${response.status}`);
    return text;
  }

  return {
    /**
     * getTransactionDetail for a payment (by its VPSTxId) or a refund we asked for (by its
     * VendorTxCode). Answers the fields, `errorcode` among them; a reply that is not a vspaccess
     * document counts as no answer.
     */
    async transactionDetail(by: { vpstxid: string } | { vendortxcode: string }): Promise<Record<string, string>> {
      const param: [string, string] =
        'vpstxid' in by ? ['vpstxid', bareVpsTxId(by.vpstxid)] : ['vendortxcode', by.vendortxcode];
      const elements = reportingElements('getTransactionDetail', options, [param]);
      const xml = `<vspaccess>${elements}<signature>${reportingSignature(elements, options.password)}</signature></vspaccess>`;
      const answer = readVspaccess(await post(urls.reporting, new URLSearchParams({ XML: xml })));
      if (!answer?.errorcode) throw new OpayoUnreachable('The Reporting API gave an answer that does not read');
      return answer;
    },

    /** A REFUND transaction; answers its Name=Value fields (Status OK, or why not). */
    async refund(fields: Array<[string, string]>): Promise<Record<string, string>> {
      return readNameValueLines(await post(urls.refund, new URLSearchParams(fields)));
    },
  };
}

export type OpayoAdminClient = ReturnType<typeof opayoAdminClient>;
