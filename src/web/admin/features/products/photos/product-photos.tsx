import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type ChangeEvent, type DragEvent } from 'react';
import type { AdminPhoto } from '../../../../../contract/admin/photos.ts';
import { photoLimits } from '../../../../../contract/photos.ts';
import { problemText } from '../../../lib/problem.ts';
import { ErrorAlert } from '../../../ui/error-alert.tsx';
import { deletePhoto, makeMainPhoto, productPhotosQueryOptions, reorderPhotos, uploadPhoto } from './api/photos.ts';
import styles from './photos.module.css';

/** An upload's progress, as "42%". */
const percent = new Intl.NumberFormat('en-GB', { style: 'percent' });

/**
 * A product's photos (docs/back-office.md#product-photos), for any page that edits a product: add
 * them with the file picker or by dropping them here (each with its progress), move them up and
 * down, make one the main image (the first), delete one. Every control is a button or an input, so
 * it all works by keyboard; what happened is announced in a status line.
 */
export function ProductPhotos({ productId }: { productId: number }) {
  const id = useId();
  const queryClient = useQueryClient();
  const photos = useQuery(productPhotosQueryOptions(productId));
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [news, setNews] = useState('');
  const [problem, setProblem] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [dragging, setDragging] = useState(false);
  const [confirming, setConfirming] = useState<number | null>(null);
  const buttons = useRef(new Map<string, HTMLButtonElement>());
  const heading = useRef<HTMLHeadingElement>(null);
  const list = photos.data?.photos ?? [];
  // Where focus goes after a change: a button's key, or '' for the heading. Moved once the change
  // has been drawn and the buttons are enabled again, not before (a disabled button takes no focus).
  const focusAfter = useRef<string | null>(null);
  useEffect(() => {
    if (focusAfter.current === null || busy) return;
    const button = focusAfter.current ? buttons.current.get(focusAfter.current) : undefined;
    focusAfter.current = null;
    if (button && !button.disabled) button.focus();
    else heading.current?.focus();
  }, [busy]);

  const change = (upload: Upload, next: Partial<Upload>) =>
    setUploads((all) => all.map((u) => (u.key === upload.key ? { ...u, ...next } : u)));

  async function add(files: File[]) {
    const queued = files.map((file, i) => ({
      key: `${Date.now()}-${i}-${file.name}`,
      file,
      sent: 0,
      state: 'waiting' as const,
    }));
    setUploads((all) => [...all.filter((u) => u.state !== 'done'), ...queued]);
    // One at a time: each shows its own progress, and the shop converts one photo after another anyway.
    for (const upload of queued) {
      if (upload.file.size > photoLimits.maxBytes) {
        change(upload, { state: 'failed', message: `Larger than ${photoLimits.maxBytes / 1024 / 1024} MB.` });
        continue;
      }
      change(upload, { state: 'sending' });
      try {
        await uploadPhoto(productId, upload.file, (sent) => change(upload, { sent }), queryClient);
        change(upload, { state: 'done', sent: 1 });
        setNews(`${upload.file.name} added.`);
      } catch (error) {
        change(upload, { state: 'failed', message: problemText(error) });
        setNews(`${upload.file.name} was not added.`);
      }
    }
  }

  function chosen(event: ChangeEvent<HTMLInputElement>) {
    const files = [...(event.target.files ?? [])];
    event.target.value = '';
    if (files.length > 0) void add(files);
  }

  function dropped(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    const files = [...event.dataTransfer.files];
    if (files.length > 0) void add(files);
  }

  /** Runs one change; afterwards focus goes to `focusKey`'s button (or the heading) and `said` is announced. */
  async function act(work: () => Promise<unknown>, said: string, focusKey?: () => string | undefined) {
    setProblem(null);
    setBusy(true);
    try {
      await work();
      setNews(said);
      focusAfter.current = focusKey?.() ?? '';
    } catch (error) {
      setProblem(error);
    } finally {
      setBusy(false);
    }
  }

  function move(photo: AdminPhoto, by: -1 | 1) {
    const order = list.map((p) => p.id);
    const from = order.indexOf(photo.id);
    const to = from + by;
    if (to < 0 || to >= order.length) return;
    [order[from], order[to]] = [order[to] as number, order[from] as number];
    const direction = by < 0 ? 'up' : 'down';
    void act(
      () => reorderPhotos(productId, order, queryClient),
      `Photo moved to position ${to + 1}${to === 0 ? ', the main image' : ''}.`,
      // Focus stays on the button pressed, or on the other one when the photo reached an end.
      () =>
        to === 0 || to === order.length - 1 ? `${photo.id}-${by < 0 ? 'down' : 'up'}` : `${photo.id}-${direction}`,
    );
  }

  const ref = (key: string) => (button: HTMLButtonElement | null) => {
    if (button) buttons.current.set(key, button);
    else buttons.current.delete(key);
  };

  return (
    <section className={styles.photos} aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} ref={heading} tabIndex={-1}>
        Photos
      </h2>
      <p className="adm-hint" id={`${id}-rules`}>
        JPEG, PNG or WebP, up to {photoLimits.maxBytes / 1024 / 1024} MB each and {photoLimits.maxPhotosPerProduct}{' '}
        photos a product. The first photo is the main image.
      </p>
      <div
        className={`${styles.dropZone} ${dragging ? styles.dragging : ''}`}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={dropped}
      >
        <label htmlFor={`${id}-files`} className="button button-secondary adm-small">
          Add photos
        </label>
        <input
          id={`${id}-files`}
          className={styles.fileInput}
          type="file"
          multiple
          accept="image/jpeg,image/png,image/webp"
          aria-describedby={`${id}-rules`}
          onChange={chosen}
        />
        <span aria-hidden="true">or drop them here</span>
      </div>

      {uploads.length > 0 && (
        <ul className={styles.uploads} aria-label="Uploads">
          {uploads.map((upload) => (
            <li key={upload.key}>
              <span className={styles.uploadName}>{upload.file.name}</span>
              <progress
                max={1}
                value={upload.state === 'failed' ? 0 : upload.sent}
                aria-label={`Uploading ${upload.file.name}`}
              />
              <span className={upload.state === 'failed' ? styles.failed : undefined}>{uploadState(upload)}</span>
            </li>
          ))}
        </ul>
      )}

      <p role="status" className={styles.news}>
        {news}
      </p>
      <ErrorAlert error={problem ?? photos.error} />

      {photos.data && list.length === 0 && <p>No photos yet: the shop shows its drawing of the instrument.</p>}
      {list.length > 0 && (
        <ol className={styles.list} aria-label="Photos, main image first" aria-busy={busy}>
          {list.map((photo, index) => {
            const n = index + 1;
            const thumb = photo.variants.find((v) => v.format === 'webp');
            return (
              <li key={photo.id} className={styles.photo}>
                {thumb && (
                  <img
                    src={thumb.url}
                    alt={`Photo ${n}`}
                    width={photo.width}
                    height={photo.height}
                    className={styles.thumb}
                  />
                )}
                <div className={styles.facts}>
                  <strong>{photo.main ? `Photo ${n}: main image` : `Photo ${n}`}</strong>
                  <span>
                    {photo.width} × {photo.height}, {photo.sourceFormat.toUpperCase()}, {sizeOf(photo.sourceBytes)}
                  </span>
                </div>
                <div className={styles.actions}>
                  <button
                    ref={ref(`${photo.id}-up`)}
                    type="button"
                    className="button button-secondary adm-small"
                    disabled={busy || index === 0}
                    onClick={() => move(photo, -1)}
                  >
                    Move up<span className="visually-hidden"> photo {n}</span>
                  </button>
                  <button
                    ref={ref(`${photo.id}-down`)}
                    type="button"
                    className="button button-secondary adm-small"
                    disabled={busy || index === list.length - 1}
                    onClick={() => move(photo, 1)}
                  >
                    Move down<span className="visually-hidden"> photo {n}</span>
                  </button>
                  {!photo.main && (
                    <button
                      type="button"
                      className="button button-secondary adm-small"
                      disabled={busy}
                      onClick={() =>
                        void act(
                          () => makeMainPhoto(productId, photo.id, queryClient),
                          `Photo ${n} is now the main image.`,
                          () => `${photo.id}-down`,
                        )
                      }
                    >
                      Make main image<span className="visually-hidden"> (photo {n})</span>
                    </button>
                  )}
                  {confirming === photo.id ? (
                    <span className={styles.confirm}>
                      <button
                        type="button"
                        className="button adm-small"
                        disabled={busy}
                        onClick={() =>
                          void act(async () => {
                            await deletePhoto(productId, photo.id, queryClient);
                            setConfirming(null);
                          }, `Photo ${n} deleted.`)
                        }
                      >
                        Yes, delete photo {n}
                      </button>
                      <button
                        ref={ref(`${photo.id}-keep`)}
                        type="button"
                        className="button button-secondary adm-small"
                        onClick={() => {
                          setConfirming(null);
                          requestAnimationFrame(() => buttons.current.get(`${photo.id}-delete`)?.focus());
                        }}
                      >
                        Keep it
                      </button>
                    </span>
                  ) : (
                    <button
                      ref={ref(`${photo.id}-delete`)}
                      type="button"
                      className="button button-secondary adm-small"
                      disabled={busy}
                      onClick={() => {
                        setConfirming(photo.id);
                        requestAnimationFrame(() => buttons.current.get(`${photo.id}-keep`)?.focus());
                      }}
                    >
                      Delete<span className="visually-hidden"> photo {n}</span>
                    </button>
                  )}
                </div>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}

interface Upload {
  key: string;
  file: File;
  /** The share of the file sent, 0 to 1. */
  sent: number;
  state: 'waiting' | 'sending' | 'done' | 'failed';
  message?: string;
}

function sizeOf(bytes: number): string {
  return bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} kB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function uploadState(upload: Upload): string {
  if (upload.state === 'failed') return upload.message ?? 'Not added.';
  if (upload.state === 'done') return 'Added';
  if (upload.state === 'waiting') return 'Waiting';
  return upload.sent >= 1 ? 'Preparing the sizes…' : percent.format(upload.sent);
}
