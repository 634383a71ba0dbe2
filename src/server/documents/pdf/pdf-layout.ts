import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { create, type Font } from 'fontkit';
import PDFDocument from 'pdfkit';

/**
 * What every document the shop prints shares (docs/rules.md#invoices-and-credit-notes): A4, one
 * embedded font (Noto Sans, the glyphs used), text a reader can search and copy, and tags (headings,
 * paragraphs, tables) that a screen reader follows. Drawn with PDFKit; nothing here knows what a
 * document says.
 */

/**
 * The fonts, read once a thread and shared by every document it draws: opened afresh for each, a
 * font's tables were parsed again and its text shaped again, most of an invoice's 100 ms. TrueType,
 * not WOFF: fontkit inflates a WOFF's tables again at every glyph it reads.
 */
function fontOf(style: 'Regular' | 'Bold'): Font {
  // Two weights kept beside this file (fonts/OFL.txt is their licence): a package of the family
  // brought every weight, 14 MB of a container image that must stay under 300 MB.
  return create(readFileSync(fileURLToPath(new URL(`fonts/NotoSans-${style}.ttf`, import.meta.url)))) as Font;
}
const REGULAR = fontOf('Regular');
const BOLD = fontOf('Bold');

export const PAGE = { width: 595.28, height: 841.89, margin: 48 };
const CONTENT_WIDTH = PAGE.width - 2 * PAGE.margin;
const BOTTOM = PAGE.height - PAGE.margin;
const INK = '#1a1a1a';
const QUIET = '#555555';
const RULE = '#c8c8c8';

export interface Column {
  header: string;
  /** Its share of the page's width. */
  width: number;
  align?: 'left' | 'right';
}

/** A PDF being written: its pages, drawn top to bottom, and its structure for assistive technology. */
export class PdfWriter {
  readonly doc: PDFKit.PDFDocument;
  private readonly chunks: Buffer[] = [];
  private readonly ended: Promise<void>;
  private root: PDFKit.PDFStructureElement;
  private section: PDFKit.PDFStructureElement | undefined;

  constructor(title: string) {
    this.doc = new PDFDocument({
      size: 'A4',
      margin: PAGE.margin,
      autoFirstPage: false,
      tagged: true,
      lang: 'en-GB',
      displayTitle: true,
      pdfVersion: '1.7',
      // No standard font is loaded: every text is in the embedded ones.
      font: null as unknown as string,
      info: { Title: title, Creator: 'The shop', Producer: 'PDFKit' },
    });
    this.doc.registerFont('regular', REGULAR as unknown as PDFKit.Mixins.PDFFontSource);
    this.doc.registerFont('bold', BOLD as unknown as PDFKit.Mixins.PDFFontSource);
    this.doc.font('regular');
    this.doc.on('data', (chunk: Buffer) => this.chunks.push(chunk));
    this.ended = new Promise((resolve) => this.doc.on('end', resolve));
    this.root = this.doc.struct('Document');
    this.doc.addStructure(this.root);
  }

  /** A new page, and a new section of the document's structure (one printed document of a batch). */
  startDocument(title: string): void {
    this.section?.end();
    this.doc.addPage();
    this.section = this.doc.struct('Sect', { title });
    this.root.add(this.section);
  }

  private get parent(): PDFKit.PDFStructureElement {
    return this.section ?? this.root;
  }

  /** Room for `height` more points on this page, or a new one. */
  private room(height: number): void {
    if (this.doc.y + height > BOTTOM) this.doc.addPage();
  }

  heading(text: string, size = 20): void {
    this.room(size * 2);
    this.parent.add(
      this.doc.struct('H1', {}, () => {
        this.doc.font('bold').fontSize(size).fillColor(INK).text(text, PAGE.margin, this.doc.y);
      }),
    );
    this.doc.moveDown(0.4);
  }

  subheading(text: string): void {
    this.room(30);
    this.parent.add(
      this.doc.struct('H2', {}, () => {
        this.doc.font('bold').fontSize(11).fillColor(INK).text(text, PAGE.margin, this.doc.y);
      }),
    );
    this.doc.moveDown(0.2);
  }

  /** Lines of text, one a line, as one paragraph. */
  paragraph(lines: readonly string[], options: { bold?: boolean; quiet?: boolean; size?: number } = {}): void {
    const size = options.size ?? 10;
    this.room(lines.length * size * 1.4 + 6);
    this.parent.add(
      this.doc.struct('P', {}, () => {
        this.doc
          .font(options.bold ? 'bold' : 'regular')
          .fontSize(size)
          .fillColor(options.quiet ? QUIET : INK)
          .text(lines.join('\n'), PAGE.margin, this.doc.y, { width: CONTENT_WIDTH });
      }),
    );
    this.doc.moveDown(0.6);
  }

  /** Label and value pairs, two columns: "Invoice number  INV-000001". */
  facts(pairs: ReadonlyArray<readonly [string, string]>): void {
    this.room(pairs.length * 15 + 6);
    const table = this.doc.struct('Table');
    this.parent.add(table);
    for (const [label, value] of pairs) {
      const y = this.doc.y;
      table.add(
        this.doc.struct('TR', {}, [
          this.doc.struct('TH', {}, () => {
            this.doc.font('regular').fontSize(10).fillColor(QUIET).text(label, PAGE.margin, y, { width: 140 });
          }),
          this.doc.struct('TD', {}, () => {
            this.doc
              .font('bold')
              .fontSize(10)
              .fillColor(INK)
              .text(value, PAGE.margin + 150, y, { width: CONTENT_WIDTH - 150 });
          }),
        ]),
      );
      this.doc.y = y + 15;
    }
    table.end();
    this.doc.moveDown(0.6);
  }

  /** Blocks side by side (the seller and the document's facts; billing and delivery). */
  columns(blocks: ReadonlyArray<{ title: string; lines: readonly string[] }>): void {
    const height = Math.max(...blocks.map((block) => block.lines.length)) * 14 + 24;
    this.room(height);
    const top = this.doc.y;
    const width = CONTENT_WIDTH / blocks.length;
    for (const [i, block] of blocks.entries()) {
      const x = PAGE.margin + i * width;
      this.parent.add(
        this.doc.struct('H2', {}, () => {
          this.doc
            .font('bold')
            .fontSize(10)
            .fillColor(INK)
            .text(block.title, x, top, { width: width - 12 });
        }),
      );
      this.parent.add(
        this.doc.struct('P', {}, () => {
          this.doc
            .font('regular')
            .fontSize(10)
            .fillColor(INK)
            .text(block.lines.join('\n'), x, top + 14, { width: width - 12 });
        }),
      );
    }
    this.doc.y = top + height;
    this.doc.x = PAGE.margin;
  }

  /** A table with a header row; a row that does not fit starts a new page, which repeats the header. */
  table(columns: readonly Column[], rows: ReadonlyArray<readonly string[]>, options: { boldLast?: number } = {}): void {
    const total = columns.reduce((sum, column) => sum + column.width, 0);
    const widths = columns.map((column) => (column.width / total) * CONTENT_WIDTH);
    const table = this.doc.struct('Table');
    this.parent.add(table);
    const drawRow = (cells: readonly string[], cellTag: 'TH' | 'TD', bold: boolean) => {
      this.doc.font(bold ? 'bold' : 'regular').fontSize(9.5);
      const height =
        Math.max(...cells.map((cell, i) => this.doc.heightOfString(cell, { width: (widths[i] ?? 0) - 8 }))) + 8;
      if (this.doc.y + height > BOTTOM) {
        this.doc.addPage();
        if (cellTag === 'TD')
          drawRow(
            columns.map((column) => column.header),
            'TH',
            true,
          );
      }
      const y = this.doc.y;
      let x = PAGE.margin;
      table.add(
        this.doc.struct(
          'TR',
          {},
          cells.map((cell, i) => {
            const at = x;
            x += widths[i] ?? 0;
            return this.doc.struct(cellTag, {}, () => {
              this.doc
                .font(bold ? 'bold' : 'regular')
                .fontSize(9.5)
                .fillColor(INK)
                .text(cell, at + 4, y + 4, { width: (widths[i] ?? 0) - 8, align: columns[i]?.align ?? 'left' });
            });
          }),
        ),
      );
      this.doc.y = y + height;
      this.rule();
    };
    drawRow(
      columns.map((column) => column.header),
      'TH',
      true,
    );
    for (const [i, row] of rows.entries())
      drawRow(row, 'TD', options.boldLast !== undefined && i >= rows.length - options.boldLast);
    table.end();
    this.doc.x = PAGE.margin;
    this.doc.moveDown(0.8);
  }

  /**
   * Lines to pack: a picture (or a blank square where there is none), what it is, and how many,
   * each row kept whole on a page.
   */
  picturedRows(rows: ReadonlyArray<{ picture?: Uint8Array; alt: string; text: string; quantity: string }>): void {
    const size = 56;
    const table = this.doc.struct('Table');
    this.parent.add(table);
    const header = () => {
      const y = this.doc.y;
      table.add(
        this.doc.struct('TR', {}, [
          this.doc.struct('TH', {}, () => {
            this.doc
              .font('bold')
              .fontSize(9.5)
              .fillColor(INK)
              .text('Item', PAGE.margin + size + 12, y, { width: 300 });
          }),
          this.doc.struct('TH', {}, () => {
            this.doc
              .font('bold')
              .fontSize(9.5)
              .text('Qty to pack', PAGE.width - PAGE.margin - 90, y, { width: 90, align: 'right' });
          }),
        ]),
      );
      this.doc.y = y + 16;
      this.rule();
    };
    header();
    for (const row of rows) {
      if (this.doc.y + size + 10 > BOTTOM) {
        this.doc.addPage();
        header();
      }
      const y = this.doc.y + 5;
      const cells: PDFKit.PDFStructureElement[] = [];
      if (row.picture)
        cells.push(
          this.doc.struct('Figure', { alt: row.alt }, () => {
            this.doc.image(Buffer.from(row.picture!), PAGE.margin, y, { fit: [size, size] });
          }),
        );
      cells.push(
        this.doc.struct('TD', {}, () => {
          this.doc
            .font('regular')
            .fontSize(11)
            .fillColor(INK)
            .text(row.text, PAGE.margin + size + 12, y + 4, { width: 320 });
        }),
        this.doc.struct('TD', {}, () => {
          this.doc
            .font('bold')
            .fontSize(16)
            .text(row.quantity, PAGE.width - PAGE.margin - 90, y + 4, { width: 90, align: 'right' });
        }),
      );
      table.add(this.doc.struct('TR', {}, cells));
      this.doc.y = y + size + 5;
      this.rule();
    }
    table.end();
    this.doc.x = PAGE.margin;
    this.doc.moveDown(0.8);
  }

  /** A thin line across the page, as decoration (an artifact, not content). */
  rule(): void {
    this.doc.markContent('Artifact', { type: 'Layout' });
    this.doc
      .moveTo(PAGE.margin, this.doc.y)
      .lineTo(PAGE.width - PAGE.margin, this.doc.y)
      .lineWidth(0.5)
      .strokeColor(RULE)
      .stroke();
    this.doc.endMarkedContent();
  }

  /** An image with its text alternative (a barcode names the number it encodes). */
  image(png: Buffer, options: { width: number; height: number; alt: string; x?: number }): void {
    this.room(options.height + 10);
    const y = this.doc.y;
    this.parent.add(
      this.doc.struct('Figure', { alt: options.alt }, () => {
        this.doc.image(png, options.x ?? PAGE.margin, y, { width: options.width, height: options.height });
      }),
    );
    this.doc.y = y + options.height + 8;
    this.doc.x = PAGE.margin;
  }

  async finish(): Promise<Buffer> {
    this.section?.end();
    this.root.end();
    this.doc.end();
    await this.ended;
    return Buffer.concat(this.chunks);
  }
}
