import { useEffect, useRef, useState, type ImgHTMLAttributes } from 'react';

/**
 * An image that hides itself when it fails to load (docs/rules.md#pages-and-routes): the stylesheet
 * covers it from the first paint (`product-picture` in styles/global.css), and the app takes it out,
 * so a screen reader meets no picture that is not there.
 */
export function ProductImage({ className, ...props }: ImgHTMLAttributes<HTMLImageElement>) {
  // The address that failed: another address (the gallery's next picture) is tried afresh.
  const [failed, setFailed] = useState<string | undefined>();
  const image = useRef<HTMLImageElement>(null);
  // A picture the server drew may have failed before the app started, when React was not there to
  // hear its error event: one that finished loading and cannot be decoded is taken out as it would
  // have been. (One still loading, or not asked for yet, is heard as usual.)
  useEffect(() => {
    const img = image.current;
    const src = props.src;
    if (!img?.complete || !src) return;
    let current = true;
    img.decode().catch(() => {
      if (current) setFailed(src);
    });
    return () => {
      current = false;
    };
  }, [props.src]);
  if (!props.src || failed === props.src) return null;
  return (
    <img
      loading="lazy"
      decoding="async"
      {...props}
      ref={image}
      className={className ? `product-picture ${className}` : 'product-picture'}
      onError={() => setFailed(props.src)}
    />
  );
}
