import * as React from "react";

import { useSiteIdentity } from "@/lib/site";
import { type ModalImage, ImageModal } from "./image-modal";
import { SafeImage } from "./safe-image";

// docs/product.md §1 named beneficiaries: a children's holiday charity, the food bank, the Red Cross branch, a
// sunflower charity for the elderly and disabled, and local initiatives. The pictures are the
// project's own illustrations, not the organisations' logos.

type Charity = {
  slug: string;
  name: string;
  /** The name with soft hyphens where a long word may break on a narrow phone (Kinder-vakantie-fonds). */
  tileName?: string;
  text: (town: string) => string;
};

const CHARITIES: readonly Charity[] = [
  {
    slug: "kindervakantiefonds",
    name: "Kindervakantiefonds",
    tileName: "Kinder\u00ADvakantie\u00ADfonds",
    text: () => "Zorgt ervoor dat kinderen uit gezinnen die het niet breed hebben, ook een week onbezorgd op vakantie kunnen.",
  },
  {
    slug: "voedselbank",
    name: "Voedselbank",
    text: (town) => `Helpt gezinnen in ${town} en omgeving die tijdelijk niet rond kunnen komen, met wekelijkse boodschappen.`,
  },
  {
    slug: "rode-kruis",
    name: "Rode Kruis",
    text: () => "De afdeling in onze regio: eerste hulp bij evenementen, noodhulp en aandacht voor wie er alleen voor staat.",
  },
  {
    slug: "zonnebloem",
    name: "Zonnebloem",
    text: () => "Organiseert uitjes, bezoekjes en vakanties voor ouderen en mensen met een lichamelijke beperking.",
  },
  {
    slug: "lokale-initiatieven",
    name: "Lokale initiatieven",
    text: (town) => `Kleine projecten en verenigingen die het verschil maken in ${town} en omstreken, elk jaar opnieuw gekozen.`,
  },
];

const LOGO = { width: 240, height: 160 } as const;

/** The tiles and their image modal: an island of the prerendered landing page (island.tsx). */
export function CharityTiles() {
  const { town } = useSiteIdentity();
  const [open, setOpen] = React.useState<ModalImage | null>(null);
  const close = React.useCallback(() => setOpen(null), []);

  return (
    <>
      {/* The five-across breakpoint (1100 px, the content width) is written in rem: Tailwind orders an
          arbitrary px breakpoint before its rem ones, and md:grid-cols-3 then won at every width. */}
      <ul
        className="grid grid-cols-1 gap-3 sm:grid-cols-2 sm:gap-4 md:grid-cols-3 min-[68.75rem]:grid-cols-5 min-[68.75rem]:gap-3"
        data-slot="charity-tiles"
      >
        {CHARITIES.map((charity) => {
          const src = `/images/doelen/${charity.slug}.svg`;
          const description = charity.text(town);
          const nameId = `doel-${charity.slug}`;
          return (
            // The card is the list item. The button holds only what its name says (the picture and the
            // charity's name), so that its visible text is part of its accessible name (WCAG 2.5.3, for
            // voice control); the description follows it and is tied to it by aria-describedby. The
            // button's ::after covers the whole card, so the card stays one click target. On phones the
            // button is a subgrid of the card, placed explicitly so that the description may share its area:
            // picture on the left, name and description on the right.
            <li
              key={charity.slug}
              className="group relative grid grid-cols-[5.5rem_minmax(0,1fr)] grid-rows-[auto_1fr] content-start items-start gap-x-4 gap-y-2 rounded-xl border bg-card p-3 shadow-sm transition-colors hover:border-primary/40 hover:bg-accent/50 has-[button:focus-visible]:ring-[3px] has-[button:focus-visible]:ring-ring/50 sm:flex sm:flex-col sm:p-4 min-[68.75rem]:p-3"
            >
              <button
                type="button"
                aria-haspopup="dialog"
                aria-labelledby={nameId}
                aria-describedby={`${nameId}-text`}
                data-charity={charity.slug}
                onClick={() => setOpen({ src, alt: `Illustratie ${charity.name}`, title: charity.name, description, ...LOGO })}
                className="col-span-2 col-start-1 row-span-2 row-start-1 grid grid-cols-subgrid grid-rows-subgrid items-start self-stretch text-left outline-none after:absolute after:inset-0 after:rounded-xl sm:flex sm:flex-col sm:gap-2"
              >
                <SafeImage
                  src={src}
                  alt=""
                  width={LOGO.width}
                  height={LOGO.height}
                  loading="lazy"
                  decoding="async"
                  className="row-span-2 h-auto w-full rounded-lg transition-transform duration-200 group-hover:scale-[1.02]"
                />
                <span
                  id={nameId}
                  data-slot="charity-name"
                  className="col-start-2 row-start-1 font-semibold text-foreground [overflow-wrap:anywhere] min-[68.75rem]:text-sm"
                >
                  {charity.tileName ?? charity.name}
                  <span className="sr-only"> – afbeelding vergroten</span>
                </span>
              </button>
              <p id={`${nameId}-text`} className="col-start-2 row-start-2 text-sm leading-relaxed text-foreground/80">
                {description}
              </p>
            </li>
          );
        })}
      </ul>
      <ImageModal image={open} onClose={close} />
    </>
  );
}
