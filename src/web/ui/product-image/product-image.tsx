import { useState, type ImgHTMLAttributes } from 'react';

/** An image that hides itself when it fails to load (docs/rules.md#pages-and-routes). */
export function ProductImage(props: ImgHTMLAttributes<HTMLImageElement>) {
  const [failed, setFailed] = useState(false);
  if (failed || !props.src) return null;
  return <img loading="lazy" decoding="async" {...props} onError={() => setFailed(true)} />;
}
