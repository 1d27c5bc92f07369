import * as React from "react";

// Each public page has its own title and meta description (docs/decisions/015). The root route renders no
// <HeadContent />, so pages set them while they are shown and put the previous ones back afterwards.

/** `noindex`: a page for one visitor (docs/decisions/067), kept out of search engines. */
export type PageMeta = { title: string; description: string; noindex?: boolean };

function metaElement(name: string): { element: HTMLMetaElement; added: boolean } {
  const found = document.head.querySelector<HTMLMetaElement>(`meta[name="${name}"]`);
  if (found) return { element: found, added: false };
  const element = document.createElement("meta");
  element.name = name;
  document.head.append(element);
  return { element, added: true };
}

export function usePageMeta({ title, description, noindex = false }: PageMeta): void {
  React.useEffect(() => {
    const meta = metaElement("description").element;
    const previous = { title: document.title, description: meta.content };
    document.title = title;
    meta.content = description;
    return () => {
      document.title = previous.title;
      meta.content = previous.description;
    };
  }, [title, description]);

  // The prerendered page carries it in its head already; a page rendered in the browser adds it while shown.
  React.useEffect(() => {
    if (!noindex) return;
    const { element, added } = metaElement("robots");
    const previous = element.content;
    element.content = "noindex";
    return () => {
      if (added) element.remove();
      else element.content = previous;
    };
  }, [noindex]);
}
