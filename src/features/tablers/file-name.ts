import { foldForSearch } from '../../db/search-text';

/** 'Sjoerd de Vries' → 'sjoerd-de-vries': a tabler's name in a file name any system takes (delivery list, seller flyer). */
export function fileNamePart(name: string): string {
  return (
    foldForSearch(name)
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'tabler'
  );
}
