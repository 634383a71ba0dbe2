import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** Below this a page is sent as it is: the encoding would save less than it costs. */
const THRESHOLD_BYTES = 1024;

/**
 * Sends a page's HTML compressed as the browser asks (brotli, else gzip). The pages are answered
 * by the not-found handler, which @fastify/compress does not reach (it hooks routes as they are
 * added), and a search page carries its first results (ADR 0019): sent plain, a phone on a slow
 * link waits for three or four times the bytes before it can start on the scripts. Brotli at
 * quality 4, as the plugin compresses the API's answers: a 25 kB page takes well under a
 * millisecond, off the event loop.
 */
export async function sendHtml(request: FastifyRequest, reply: FastifyReply, html: string): Promise<FastifyReply> {
  reply.type('text/html; charset=utf-8').header('vary', 'accept-encoding');
  const header = request.headers['accept-encoding'];
  const encoding =
    typeof header === 'string' && Buffer.byteLength(html) >= THRESHOLD_BYTES
      ? negotiate(header.toLowerCase(), ['br', 'gzip'])
      : null;
  if (encoding === 'br') {
    const body = await brotli(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } });
    return reply.header('content-encoding', 'br').send(body);
  }
  if (encoding === 'gzip') return reply.header('content-encoding', 'gzip').send(await gzipped(html));
  return reply.send(html);
}
