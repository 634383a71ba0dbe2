import { requestFile } from './api.ts';

/**
 * Fetches a file and hands it to the browser as a download; answers its name. Fetched rather than
 * linked, so a refusal (a period too long, a carrier that is down) comes back as an error the page
 * can show, where a plain link's download is dropped by the browser without a word.
 */
export async function downloadFile(path: string, fallbackFilename: string): Promise<string> {
  const { blob, filename = fallbackFilename } = await requestFile(path);
  const url = URL.createObjectURL(blob);
  const link = Object.assign(document.createElement('a'), { href: url, download: filename });
  document.body.append(link);
  link.click();
  link.remove();
  // The click has handed the file over; the browser no longer needs the address.
  setTimeout(() => URL.revokeObjectURL(url), 0);
  return filename;
}
