import * as React from "react";

// Each public page has its own title and meta description (docs/decisions/015). The root route renders no
// <HeadContent />, so pages set them while they are shown and put the previous ones back afterwards.

export type PageMeta = { title: string; description: string };

function descriptionElement(): HTMLMetaElement {
  let element = document.head.querySelector<HTMLMetaElement>('meta[name="description"]');
  if (!element) {
    element = document.createElement("meta");
    element.name = "description";
    document.head.append(element);
  }
  return element;
}

export function usePageMeta({ title, description }: PageMeta): void {
  React.useEffect(() => {
    const meta = descriptionElement();
    const previous = { title: document.title, description: meta.content };
    document.title = title;
    meta.content = description;
    return () => {
      document.title = previous.title;
      meta.content = previous.description;
    };
  }, [title, description]);
}
