import * as React from "react";

import { type ModalImage, ImageModal } from "./image-modal";
import { SafeImage } from "./safe-image";

// spec §1 named beneficiaries: a children's holiday charity, the food bank, the Red Cross branch, a
// sunflower charity for the elderly and disabled, and local initiatives. The pictures are the
// project's own illustrations, not the organisations' logos.

type Charity = { slug: string; name: string; text: (town: string) => string };

const CHARITIES: readonly Charity[] = [
  {
    slug: "kindervakantiefonds",
    name: "Kindervakantiefonds",
    text: () =>
      "Zorgt ervoor dat kinderen uit gezinnen die het niet breed hebben, ook een week onbezorgd op vakantie kunnen.",
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

export function CharityTiles({ town }: { town: string }) {
  const [open, setOpen] = React.useState<ModalImage | null>(null);
  const close = React.useCallback(() => setOpen(null), []);

  return (
    <>
      <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2 sm:gap-4 md:grid-cols-3 min-[1100px]:grid-cols-5 min-[1100px]:gap-3" data-slot="charity-tiles">
        {CHARITIES.map((charity) => {
          const src = `/images/doelen/${charity.slug}.svg`;
          const description = charity.text(town);
          const nameId = `doel-${charity.slug}`;
          return (
            <li key={charity.slug} className="flex">
              <button
                type="button"
                aria-haspopup="dialog"
                aria-labelledby={nameId}
                aria-describedby={`${nameId}-text`}
                data-charity={charity.slug}
                onClick={() =>
                  setOpen({ src, alt: `Illustratie ${charity.name}`, title: charity.name, description, ...LOGO })
                }
                className="group grid w-full grid-cols-[6.5rem_minmax(0,1fr)] content-start items-start gap-x-4 gap-y-2 rounded-xl border bg-card p-3 text-left shadow-sm outline-none transition-colors hover:border-primary/40 hover:bg-accent/50 focus-visible:ring-[3px] focus-visible:ring-ring/50 sm:flex sm:flex-col sm:p-4 min-[1100px]:p-3"
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
                <span id={nameId} data-slot="charity-name" className="font-semibold text-foreground [overflow-wrap:anywhere] min-[1100px]:text-sm">
                  {charity.name}
                  <span className="sr-only"> – afbeelding vergroten</span>
                </span>
                <span id={`${nameId}-text`} className="text-sm leading-relaxed text-foreground/80">
                  {description}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
      <ImageModal image={open} onClose={close} />
    </>
  );
}
