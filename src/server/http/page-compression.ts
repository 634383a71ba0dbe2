import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** Below this a page is sent as it is: the encoding would save less than it costs. */
const THRESHOLD_BYTES = 1024;

export interface HtmlPage {
  /** The HTML in UTF-8: its exact size, and none of the strings it was put together from kept alive. */
  html: Buffer;
  /** Its encodings, each made the first time a browser asks for it. */
  encoded: Map<'br' | 'gzip', Promise<Buffer>>;
}

/** A page's HTML, to be sent compressed as often as it is asked for, compressed once each way. */
export function htmlPage(html: string): HtmlPage {
  return { html: Buffer.from(html), encoded: new Map() };
}

function encode(html: Buffer, encoding: 'br' | 'gzip'): Promise<Buffer> {
  return encoding === 'br' ? brotli(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }) : gzipped(html);
}

/**
 * Sends a page's HTML compressed as the browser asks (brotli, else gzip). The pages are answered
 * by the not-found handler, which @fastify/compress does not reach (it hooks routes as they are
 * added), and a search page carries its first results (ADR 0019): sent plain, a phone on a slow
 * link waits for three or four times the bytes before it can start on the scripts. Brotli at
 * quality 4, as the plugin compresses the API's answers: a 25 kB page takes well under a
 * millisecond, off the event loop. A page kept for many answers (web-app.ts) is compressed once
 * each way.
 */
export async function sendHtml(
  request: FastifyRequest,
  reply: FastifyReply,
  page: HtmlPage | string,
): Promise<FastifyReply> {
  const { html, encoded } = typeof page === 'string' ? htmlPage(page) : page;
  reply.type('text/html; charset=utf-8').header('vary', 'accept-encoding');
  const header = request.headers['accept-encoding'];
  const encoding =
    typeof header === 'string' && html.length >= THRESHOLD_BYTES
      ? negotiate(header.toLowerCase(), ['br', 'gzip'])
      : null;
  if (encoding !== 'br' && encoding !== 'gzip') return reply.send(html);
  let body = encoded.get(encoding);
  if (!body) {
    body = encode(html, encoding);
    encoded.set(encoding, body);
    // A compression that failed is tried afresh the next time, not kept.
    body.catch(() => encoded.delete(encoding));
  }
  return reply.header('content-encoding', encoding).send(await body);
}
