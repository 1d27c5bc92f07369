import ArrowRightIcon from "lucide-react/icons/arrow-right";
import CalendarDaysIcon from "lucide-react/icons/calendar-days";
import CheckIcon from "lucide-react/icons/check";
import ClipboardListIcon from "lucide-react/icons/clipboard-list";
import HandHeartIcon from "lucide-react/icons/hand-heart";
import UsersIcon from "lucide-react/icons/users";
import type * as React from "react";

import { PageContainer } from "@/components/layout/site-layout";
import { Button } from "@/components/ui/button";
import { usePageMeta } from "@/lib/page-meta";
import { formatEuro, type SiteIdentity, useSiteIdentity } from "@/lib/site";
import { cn } from "@/lib/utils";
import { CharityTiles } from "../charities";
import { Island } from "../island";
import { pageMeta } from "../page-meta";
import { ExternalLinkText } from "@/components/external-link-text";

// docs/product.md §1 and §2 "Landing page": hero with the campaign and club name, the anchors #home, #wie, #wat,
// #goede-doelen and a link to /contact; who we are, what we do (price card), the charities, how to
// order (the personal-contact reading of §1) and the package contents (#folder).
// Free of the router: the prerendered page runs it without one (web/public-entry.tsx).
const FOLDER = { src: "/images/folder-kerstpakket.svg", width: 600, height: 840 } as const;

export function HomePage() {
  const site = useSiteIdentity();
  usePageMeta(pageMeta.home(site));

  return (
    <>
      <Hero site={site} />
      <WhoWeAre site={site} />
      <WhatWeDo site={site} />
      <Charities />
      <HowToOrder site={site} />
      <PackageContents />
    </>
  );
}

const IN_PAGE_LINKS = [
  { href: "#home", label: "Home" },
  { href: "#wie", label: "Wie zijn wij" },
  { href: "#wat", label: "Wat doen wij" },
  { href: "#goede-doelen", label: "Goede doelen" },
] as const;

const pill =
  "inline-flex h-9 items-center rounded-full border border-primary/20 bg-background/80 px-3.5 text-sm font-medium text-accent-foreground outline-none hover:border-primary/40 hover:bg-background focus-visible:ring-[3px] focus-visible:ring-ring/50";

function Hero({ site }: { site: SiteIdentity }) {
  return (
    <section
      id="home"
      aria-labelledby="home-title"
      className="relative overflow-hidden bg-linear-to-b from-accent via-accent/60 to-background"
    >
      <PageContainer className="flex flex-col gap-8 pt-6 pb-12 sm:pt-8 sm:pb-16">
        <nav aria-label="Op deze pagina">
          <ul className="flex flex-wrap gap-2">
            {IN_PAGE_LINKS.map((link) => (
              <li key={link.href}>
                <a href={link.href} className={pill}>
                  {link.label}
                </a>
              </li>
            ))}
            <li>
              <a href="/contact" className={pill}>
                Contact
              </a>
            </li>
          </ul>
        </nav>
        <div className="grid items-center gap-8 md:grid-cols-[minmax(0,1.15fr)_minmax(0,0.85fr)]">
          <div className="flex flex-col items-start gap-5">
            <p className="text-sm font-semibold tracking-wide text-primary uppercase">Kerstpakketten voor het goede doel</p>
            <h1 id="home-title" className="text-4xl font-extrabold tracking-tight text-balance sm:text-5xl">
              Kerstactie <span className="block text-primary">{site.clubName}</span>
            </h1>
            <p className="max-w-xl text-lg leading-relaxed text-pretty text-foreground/80">
              Een kerstpakket dat twee keer goed doet: een blije ontvanger, en goede doelen in de regio die de volledige opbrengst krijgen.
              Met de hand ingepakt door onze leden en bezorgd in {site.town} en omstreken.
            </p>
            <div className="flex flex-wrap gap-3">
              <Button asChild size="lg">
                <a href="#folder">
                  Bekijk het pakket
                  <ArrowRightIcon aria-hidden="true" />
                </a>
              </Button>
              <Button asChild size="lg" variant="outline">
                <a href="/contact">Neem contact op</a>
              </Button>
            </div>
          </div>
          <img
            src="/images/kerstpakket.svg"
            alt="Een kerstpakket: een canvas tas vol lekkers, een drinkbeker en cadeautjes"
            width={560}
            height={440}
            fetchPriority="high"
            className="mx-auto h-auto w-full max-w-sm md:max-w-none"
          />
        </div>
      </PageContainer>
    </section>
  );
}

function SectionHeading({ id, eyebrow, title, children }: { id: string; eyebrow: string; title: string; children?: React.ReactNode }) {
  return (
    <div className="flex max-w-2xl flex-col gap-3">
      <p className="text-sm font-semibold tracking-wide text-primary uppercase">{eyebrow}</p>
      <h2 id={id} className="text-3xl font-bold tracking-tight text-balance sm:text-4xl">
        {title}
      </h2>
      {children && <div className="flex flex-col gap-3 text-lg leading-relaxed text-pretty text-foreground/80">{children}</div>}
    </div>
  );
}

function Fact({ icon, title, children }: { icon: React.ReactNode; title: string; children: React.ReactNode }) {
  return (
    <li className="flex gap-4 rounded-xl border bg-card p-5 shadow-sm">
      <span
        aria-hidden="true"
        className="flex size-11 shrink-0 items-center justify-center rounded-full bg-accent text-primary [&_svg]:size-5"
      >
        {icon}
      </span>
      <div className="flex flex-col gap-1">
        <h3 className="font-semibold">{title}</h3>
        <p className="text-sm leading-relaxed text-foreground/80">{children}</p>
      </div>
    </li>
  );
}

function WhoWeAre({ site }: { site: SiteIdentity }) {
  return (
    <section id="wie" aria-labelledby="wie-title">
      <PageContainer className="grid gap-8 py-14 sm:py-20 lg:grid-cols-2 lg:items-center">
        <SectionHeading id="wie-title" eyebrow="Wie zijn wij" title="Jonge mannen met hart voor de regio">
          <p>
            {site.clubName} is een serviceclub van jonge mannen tussen de 25 en 40 jaar. Eens per twee weken komen we bij elkaar: om bij te
            praten, elkaar scherp te houden en samen plannen te maken.
          </p>
          <p>
            Vriendschap en iets betekenen voor een ander gaan bij ons hand in hand. De kerstactie is daar elk jaar het mooiste voorbeeld
            van.
          </p>
        </SectionHeading>
        <ul className="grid gap-4">
          <Fact icon={<UsersIcon />} title="25 tot 40 jaar">
            Leden met heel verschillende beroepen, allemaal uit {site.town} en omgeving.
          </Fact>
          <Fact icon={<CalendarDaysIcon />} title="Eens per twee weken">
            Een vaste tafelavond waar vriendschap en nieuwe ideeën samenkomen.
          </Fact>
          <Fact icon={<HandHeartIcon />} title="Alles voor het goede doel">
            We doen het werk als vrijwilliger: de volledige winst gaat naar goede doelen in de regio.
          </Fact>
        </ul>
      </PageContainer>
    </section>
  );
}

function Check({ children }: { children: React.ReactNode }) {
  return (
    <li className="flex items-start gap-2.5">
      <CheckIcon aria-hidden="true" className="mt-1 size-4 shrink-0 text-success" />
      <span>{children}</span>
    </li>
  );
}

function WhatWeDo({ site }: { site: SiteIdentity }) {
  return (
    <section id="wat" aria-labelledby="wat-title" className="bg-muted/60">
      <PageContainer className="grid gap-10 py-14 sm:py-20 lg:grid-cols-[minmax(0,1fr)_22rem] lg:items-center">
        <div className="flex flex-col gap-6">
          <SectionHeading id="wat-title" eyebrow="Wat doen wij" title="Kerstpakketten, met de hand ingepakt">
            <p>
              Elk jaar in de aanloop naar kerst stellen we kerstpakketten samen voor bedrijven, verenigingen en particulieren. Onze leden
              pakken ze zelf in, op een paar gezellige avonden met veel koffie en nog meer plakband.
            </p>
            <p>Omdat we het werk als vrijwilliger doen, gaat alle winst naar het goede doel.</p>
          </SectionHeading>
          <ul className="grid gap-2.5 text-foreground/90 sm:grid-cols-2">
            <Check>Ingepakt door onze eigen leden</Check>
            <Check>In elk pakket een canvas tas en een drinkbeker</Check>
            <Check>Bezorgd in {site.town} en omstreken</Check>
            <Check>De factuur ontvang je per e-mail</Check>
          </ul>
        </div>
        <PriceCard site={site} />
      </PageContainer>
    </section>
  );
}

function PriceCard({ site }: { site: SiteIdentity }) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a price card, not a set of form controls, so no <fieldset>
    <div
      data-slot="price-card"
      aria-labelledby="price-title"
      role="group"
      className="flex flex-col gap-5 rounded-2xl border-2 border-primary/20 bg-card p-6 text-center shadow-lg sm:p-8"
    >
      <h3 id="price-title" className="text-sm font-semibold tracking-wide text-primary uppercase">
        Eén kerstpakket
      </h3>
      <p className="flex flex-col items-center gap-1" data-slot="price">
        <span className="text-5xl font-extrabold tracking-tight">€ {formatEuro(site.packagePrice)}</span>{" "}
        <span className="text-foreground/80">per pakket, exclusief btw</span>
      </p>
      <p className="text-sm leading-relaxed text-foreground/80">
        De volledige winst gaat naar goede doelen in de regio. Bestellen gaat via persoonlijk contact met een van onze leden.
      </p>
      <Button asChild size="lg" className="w-full">
        <a href="/contact">Interesse? Neem contact op</a>
      </Button>
    </div>
  );
}

function Charities() {
  return (
    <section id="goede-doelen" aria-labelledby="goede-doelen-title">
      <PageContainer className="flex flex-col gap-8 py-14 sm:py-20">
        <SectionHeading id="goede-doelen-title" eyebrow="Goede doelen" title="Hier gaat de opbrengst naartoe">
          <p>
            De volledige winst van de kerstactie gaat naar goede doelen in de regio. Zo komt elk pakket dat je bestelt terecht bij mensen
            hier in de buurt.
          </p>
        </SectionHeading>
        <Island name="charities" component={CharityTiles} />
        <p className="text-sm text-muted-foreground">
          Klik op een doel voor een grotere afbeelding. De afbeeldingen zijn eigen illustraties, geen officiële logo's.
        </p>
      </PageContainer>
    </section>
  );
}

function Step({ number, title, children }: { number: number; title: string; children: React.ReactNode }) {
  return (
    <li className="flex gap-4">
      <span
        aria-hidden="true"
        className="flex size-10 shrink-0 items-center justify-center rounded-full bg-primary text-lg font-bold text-primary-foreground"
      >
        {number}
      </span>
      <div className="flex flex-col gap-1 pt-1.5">
        <h3 className="font-semibold">
          <span className="sr-only">Stap {number}: </span>
          {title}
        </h3>
        <p className="leading-relaxed text-foreground/80">{children}</p>
      </div>
    </li>
  );
}

function HowToOrder({ site }: { site: SiteIdentity }) {
  return (
    <section id="bestellen" aria-labelledby="bestellen-title" className="bg-muted/60">
      <PageContainer className="grid gap-10 py-14 sm:py-20 lg:grid-cols-2">
        <div className="flex flex-col gap-6">
          <SectionHeading id="bestellen-title" eyebrow="Bestellen" title="Hoe bestel ik een pakket?">
            <p>
              Deze website vertelt je alles over onze kerstactie, maar bestellen doe je niet in een webwinkel: dat gaat via persoonlijk
              contact met een van onze leden.
            </p>
          </SectionHeading>
          <div className="flex flex-wrap gap-3">
            <Button asChild size="lg">
              <a href="/contact">Neem contact op</a>
            </Button>
            <Button asChild size="lg" variant="outline">
              <a href="/bestelinformatie">Meer over bestellen</a>
            </Button>
          </div>
        </div>
        <div className="flex flex-col gap-6">
          <ol className="flex flex-col gap-5">
            <Step number={1} title="Neem contact op">
              Spreek een van onze leden aan, of stuur een bericht via het contactformulier.
            </Step>
            <Step number={2} title="Persoonlijk contact">
              Een lid neemt contact met je op en bespreekt het aantal pakketten, het adres en je wensen.
            </Step>
            <Step number={3} title="Bevestiging en factuur">
              Je krijgt een bevestiging van je bestelling; de factuur volgt per e-mail.
            </Step>
            <Step number={4} title="Bezorging">
              Vlak voor kerst bezorgen we de pakketten in {site.town} en omstreken.
            </Step>
          </ol>
          <div className="flex gap-3 rounded-xl border border-primary/20 bg-card p-4 text-sm leading-relaxed shadow-sm">
            <ClipboardListIcon aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-primary" />
            <p>
              <strong className="font-semibold">Lid van de club?</strong> Leg de bestellingen die je opneemt vast in het{" "}
              <a href="/order" className="font-medium text-primary underline underline-offset-4 hover:no-underline">
                bestelformulier
              </a>
              , met het wachtwoord dat je van de club hebt gekregen.
            </p>
          </div>
        </div>
      </PageContainer>
    </section>
  );
}

function PackageContents() {
  return (
    <section id="folder" aria-labelledby="folder-title">
      <PageContainer className="grid gap-10 py-14 sm:py-20 md:grid-cols-[minmax(0,1fr)_minmax(0,22rem)] md:items-center">
        <div className="flex flex-col gap-6">
          <SectionHeading id="folder-title" eyebrow="Het pakket" title="Wat zit er in het kerstpakket?">
            <p>
              Elk pakket stellen we met zorg samen, met lekkers voor de feestdagen. De precieze inhoud verschilt per jaar; in de folder zie
              je wat er dit jaar in zit.
            </p>
            <p>Vaste onderdelen, elk jaar weer:</p>
          </SectionHeading>
          <ul className="grid gap-2.5 text-lg">
            <Check>Een stevige canvas tas, om daarna nog jaren mee te gaan</Check>
            <Check>Een drinkbeker voor de koffie, thee of warme chocolademelk</Check>
          </ul>
          <a
            href={FOLDER.src}
            target="_blank"
            rel="noopener"
            className={cn(
              "self-start rounded-md font-semibold text-primary underline underline-offset-4 outline-none",
              "hover:no-underline focus-visible:ring-[3px] focus-visible:ring-ring/50",
            )}
          >
            <ExternalLinkText text="Open de folder in een nieuw venster" iconClassName="size-4" />
          </a>
        </div>
        <figure className="mx-auto w-full max-w-xs md:max-w-none">
          <img
            src={FOLDER.src}
            alt="Folder van het kerstpakket: een canvas tas, een drinkbeker en lekkers voor de feestdagen"
            width={FOLDER.width}
            height={FOLDER.height}
            loading="lazy"
            decoding="async"
            className="h-auto w-full rotate-1 rounded-xl border shadow-xl"
          />
        </figure>
      </PageContainer>
    </section>
  );
}
