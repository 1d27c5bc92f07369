import * as React from "react";

/**
 * An <img> that hides itself when it fails to load (docs/product.md §2 "Landing page"). The mount check catches
 * a failure that happened before React attached its handler (a prerendered page hydrating late).
 */
export function SafeImage({ alt, onError, ...props }: React.ComponentProps<"img"> & { alt: string }) {
  const [failed, setFailed] = React.useState(false);
  const ref = React.useRef<HTMLImageElement>(null);

  React.useEffect(() => {
    const image = ref.current;
    if (image?.complete && image.naturalWidth === 0 && image.getAttribute("src")) setFailed(true);
  }, []);

  return (
    <img
      ref={ref}
      alt={alt}
      {...props}
      hidden={failed || props.hidden}
      data-failed={failed || undefined}
      onError={(event) => {
        setFailed(true);
        onError?.(event);
      }}
    />
  );
}
