import { Piscina } from 'piscina';
import { renderDocuments, type RenderTask } from './render-documents.ts';

/** The document thread's one task (document-renderer.ts): a PDF, its bytes moved back, not copied. */
export default async function render(task: RenderTask) {
  const pdf = await renderDocuments(task);
  const bytes = new Uint8Array(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  // A Buffer from the pool shares its memory: a copy of its own is what can be moved.
  return Piscina.move(bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice());
}
