import * as React from "react";

import { SafeImage } from "./safe-image";

export type ModalImage = {
  src: string;
  alt: string;
  width: number;
  height: number;
  title: string;
  description?: string;
};

/**
 * The landing page's image modal (docs/product.md §2): closes on a click on the backdrop, on the close button and
 * on Escape. Built on the native <dialog> (focus moves in and back, the page behind is inert), so the
 * landing page carries no dialog library.
 */
export function ImageModal({ image, onClose }: { image: ModalImage | null; onClose: () => void }) {
  const dialogRef = React.useRef<HTMLDialogElement>(null);
  const titleId = React.useId();

  React.useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (image && !dialog.open) dialog.showModal();
    if (!image && dialog.open) dialog.close();
  }, [image]);

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the click is the backdrop's; the native dialog closes on Escape itself
    <dialog
      ref={dialogRef}
      aria-labelledby={titleId}
      data-slot="image-modal"
      onClose={onClose}
      // The dialog box has no padding, so a click whose target is the dialog itself hit the backdrop.
      onClick={(event) => {
        if (event.target === event.currentTarget) event.currentTarget.close();
      }}
      className="m-auto w-[min(36rem,calc(100vw-2rem))] max-h-[calc(100dvh-2rem)] max-w-none overflow-y-auto rounded-xl bg-background p-0 text-foreground shadow-2xl backdrop:bg-black/60 open:animate-dialog-in"
    >
      {image && (
        <div className="relative flex flex-col gap-4 p-5 sm:p-6">
          <div className="flex items-start justify-between gap-4">
            <h2 id={titleId} className="text-lg font-bold tracking-tight sm:text-xl">
              {image.title}
            </h2>
            <button
              type="button"
              onClick={() => dialogRef.current?.close()}
              className="-mt-1 -mr-1 inline-flex size-9 shrink-0 items-center justify-center rounded-md text-muted-foreground outline-none hover:bg-accent hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50"
            >
              <CloseIcon />
              <span className="sr-only">Sluiten</span>
            </button>
          </div>
          <SafeImage
            key={image.src}
            src={image.src}
            alt={image.alt}
            width={image.width}
            height={image.height}
            className="h-auto w-full rounded-lg border"
          />
          {image.description && <p className="leading-relaxed text-foreground/85">{image.description}</p>}
        </div>
      )}
    </dialog>
  );
}

/**
 * Lucide's "x", drawn here: the only icon of the landing page's islands, which thereby leave out
 * lucide's runtime (1.5 KB gzip, against the budget of docs/decisions/036).
 */
function CloseIcon() {
  return (
    <svg
      aria-hidden="true"
      xmlns="http://www.w3.org/2000/svg"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      className="size-5"
    >
      <path d="M18 6 6 18" />
      <path d="m6 6 12 12" />
    </svg>
  );
}
